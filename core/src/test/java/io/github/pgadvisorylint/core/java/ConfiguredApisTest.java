package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.LockSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration's lockHelpers and pooledApiTypes reach the Java front end. */
class ConfiguredApisTest {

    @TempDir
    Path root;

    private List<LockSite> sites(Set<String> helpers, Set<String> pooled) {
        return Analyzer.builder()
                .threads(1)
                .extraLockHelpers(helpers)
                .extraPooledApiTypes(pooled)
                .build()
                .analyze(root, List.of(root))
                .model()
                .sites();
    }

    @Test
    void configuredHelpersAreLockSitesEvenInFilesThatNeverSayAdvisory() throws Exception {
        Files.writeString(root.resolve("Job.java"), """
                class Job {
                    DistributedLocks locks;
                    void run() {
                        locks.acquire(42L);
                        locks.tryAcquire(43L);
                        locks.release(42L);
                        other.acquire(44L);
                    }
                }
                """);
        List<LockSite> sites =
                sites(Set.of("DistributedLocks.acquire", "DistributedLocks.release", "tryAcquire"), Set.of());
        assertThat(sites)
                .extracting(LockSite::function)
                .containsExactly(
                        AdvisoryFunction.PG_ADVISORY_LOCK,
                        AdvisoryFunction.PG_TRY_ADVISORY_LOCK,
                        AdvisoryFunction.PG_ADVISORY_UNLOCK);
        assertThat(sites.get(0).key().canonical()).isEqualTo("(42)");
        assertThat(sites(Set.of(), Set.of())).isEmpty();
    }

    @Test
    void configuredPooledTypesBorrowAConnectionPerCall() throws Exception {
        Files.writeString(root.resolve("Job.java"), """
                class Job {
                    com.acme.db.PooledSql sql;
                    void run() { sql.query("SELECT pg_try_advisory_lock(7)"); }
                }
                """);
        assertThat(sites(Set.of(), Set.of("com.acme.db.PooledSql"))
                        .get(0)
                        .execution()
                        .connection())
                .isEqualTo(ConnectionScope.POOLED_PER_CALL);
        assertThat(sites(Set.of(), Set.of()).get(0).execution().connection()).isEqualTo(ConnectionScope.UNKNOWN);
    }
}
