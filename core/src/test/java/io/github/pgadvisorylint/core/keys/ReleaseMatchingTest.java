package io.github.pgadvisorylint.core.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseMismatch;
import io.github.pgadvisorylint.core.model.ReleaseMismatch.Kind;
import io.github.pgadvisorylint.core.model.ReleaseMismatch.Scope;
import io.github.pgadvisorylint.core.model.ResultUse;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The written keys' release facts, on tiny models of one file: a release is compared with its method's acquisitions
 * (its class's when the method only releases) by key, key space, mode and level (RULES.md F2, F4, F5, F6, F7).
 */
class ReleaseMatchingTest {

    private static final String FILE = "src/main/java/Jobs.java";
    private static final SqlContext SQL =
            new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1");

    private final List<LockSite> sites = new ArrayList<>();
    private final Map<String, SiteUsage> usage = new HashMap<>();

    private LockSite at(String method, AdvisoryFunction fn, LockKey key, boolean straightLine) {
        int line = sites.size() + 1;
        LockSite s = new LockSite(
                FILE + "#" + line,
                fn,
                key,
                SourceRegion.line(FILE, line),
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                SQL,
                new JavaContext("Jobs", method, "st.execute", null, null));
        sites.add(s);
        usage.put(s.id(), new SiteUsage(ResultUse.UNKNOWN, "", null, null, straightLine, false));
        return s;
    }

    private LockSite at(String method, AdvisoryFunction fn, LockKey key) {
        return at(method, fn, key, true);
    }

    private static LockKey known(long... values) {
        List<KeyPart> parts = new ArrayList<>();
        for (long v : values) {
            parts.add(KeyPart.known(v, Long.toString(v), null));
        }
        return new LockKey(values.length == 1 ? KeySpace.BIGINT : KeySpace.INT_PAIR, parts);
    }

    private static LockKey expression(String text) {
        return new LockKey(KeySpace.BIGINT, List.of(KeyPart.of(KeyPart.Kind.UNKNOWN, text)));
    }

    private List<ReleaseMismatch> matched() {
        return ReleaseMatching.of(new LockModel(sites, List.of()).withUsage(usage, List.of()));
    }

    @Test
    void aReleaseOfTheKeyModeAndLevelTheMethodLocksIsNoFact() {
        at("run", AdvisoryFunction.PG_ADVISORY_LOCK, known(1));
        at("run", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(1));
        at("shared", AdvisoryFunction.PG_ADVISORY_LOCK_SHARED, expression("jobId"));
        at("shared", AdvisoryFunction.PG_ADVISORY_UNLOCK_SHARED, expression("jobId"));
        assertThat(matched()).isEmpty();
    }

    @Test
    void theOtherModeTheTransactionLevelAndTheOtherKeySpaceEachReleaseNothing() {
        LockSite shared = at("mode", AdvisoryFunction.PG_ADVISORY_LOCK_SHARED, known(1));
        LockSite exclusive = at("mode", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(1));
        LockSite xact = at("xact", AdvisoryFunction.PG_ADVISORY_XACT_LOCK, known(2));
        LockSite early = at("xact", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(2));
        LockSite one = at("space", AdvisoryFunction.PG_ADVISORY_LOCK, known(7));
        LockSite two = at("space", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(0, 7));
        assertThat(matched())
                .extracting(ReleaseMismatch::kind, ReleaseMismatch::release, ReleaseMismatch::holds)
                .containsExactly(
                        tuple(Kind.OTHER_MODE, exclusive, List.of(shared)),
                        tuple(Kind.TRANSACTION_LEVEL, early, List.of(xact)),
                        tuple(Kind.OTHER_KEY_SPACE, two, List.of(one)));
    }

    @Test
    void anotherKnownKeyIsAFactOnlyWhenEveryKeyLockedIsKnown() {
        LockSite lock = at("known", AdvisoryFunction.PG_ADVISORY_LOCK, known(1));
        LockSite other = at("known", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(2));
        at("mixed", AdvisoryFunction.PG_ADVISORY_LOCK, known(3));
        at("mixed", AdvisoryFunction.PG_ADVISORY_LOCK, expression("shard"));
        at("mixed", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(4)); // shard may be 4
        List<ReleaseMismatch> found = matched();
        assertThat(found).hasSize(1);
        assertThat(found.get(0).kind()).isEqualTo(Kind.OTHER_KEY);
        assertThat(found.get(0).release()).isEqualTo(other);
        assertThat(found.get(0).holds()).containsExactly(lock);
        assertThat(found.get(0).scope()).isEqualTo(Scope.METHOD);
    }

    @Test
    void aMethodThatOnlyReleasesIsComparedWithItsClass() {
        LockSite lock = at("acquire", AdvisoryFunction.PG_ADVISORY_LOCK, known(10));
        LockSite release = at("release", AdvisoryFunction.PG_ADVISORY_UNLOCK_SHARED, known(10));
        List<ReleaseMismatch> found = matched();
        assertThat(found).extracting(ReleaseMismatch::kind).containsExactly(Kind.OTHER_MODE);
        assertThat(found.get(0).scope()).isEqualTo(Scope.CLASS);
        assertThat(found.get(0).release()).isEqualTo(release);
        assertThat(found.get(0).holds()).containsExactly(lock);
    }

    @Test
    void aKeyComputedByTheSameFunctionFromOtherInputsIsNamedWithBothShapes() {
        at("migrate", AdvisoryFunction.PG_ADVISORY_LOCK, expression("lockId(db, schema)"));
        at("migrate", AdvisoryFunction.PG_ADVISORY_UNLOCK, expression("lockId(db)"));
        List<ReleaseMismatch> found = matched();
        assertThat(found).extracting(ReleaseMismatch::kind).containsExactly(Kind.KEY_COMPUTED_DIFFERENTLY);
        assertThat(found.get(0).releaseComputation()).contains("1 input");
        assertThat(found.get(0).holdComputation()).contains("2 inputs");
    }

    @Test
    void straightLineCountsFindTheExtraUnlockAndTheStackedLockButNotAStaleHoldDropped() {
        LockSite lock = at("twice", AdvisoryFunction.PG_ADVISORY_LOCK, known(5));
        at("twice", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(5));
        LockSite extra = at("twice", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(5));
        LockSite first = at("stacked", AdvisoryFunction.PG_ADVISORY_LOCK, known(6));
        LockSite second = at("stacked", AdvisoryFunction.PG_ADVISORY_LOCK, known(6));
        LockSite once = at("stacked", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(6));
        at("stale", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(8)); // in case this session still holds it
        at("stale", AdvisoryFunction.PG_ADVISORY_LOCK, known(8));
        at("stale", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(8));
        at("branched", AdvisoryFunction.PG_ADVISORY_LOCK, known(9), false);
        at("branched", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(9), true);
        at("branched", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(9), false);
        List<ReleaseMismatch> found = matched();
        assertThat(found)
                .extracting(ReleaseMismatch::kind, ReleaseMismatch::release, ReleaseMismatch::releases)
                .containsExactly(tuple(Kind.EXTRA_UNLOCK, extra, 2), tuple(Kind.STACKED_UNRELEASED, once, 1));
        assertThat(found.get(0).holds()).containsExactly(lock);
        assertThat(found.get(1).holds()).containsExactly(first, second);
    }

    @Test
    void unlockAllAsTheOnlyReleaseOfTheOneKeyItsMethodLocks() {
        LockSite lock = at("sweep", AdvisoryFunction.PG_ADVISORY_LOCK, known(11));
        LockSite all = at("sweep", AdvisoryFunction.PG_ADVISORY_UNLOCK_ALL, new LockKey(KeySpace.NONE, List.of()));
        at("pair", AdvisoryFunction.PG_ADVISORY_LOCK, known(12));
        at("pair", AdvisoryFunction.PG_ADVISORY_UNLOCK, known(12));
        at("pair", AdvisoryFunction.PG_ADVISORY_UNLOCK_ALL, new LockKey(KeySpace.NONE, List.of()));
        List<ReleaseMismatch> found = matched();
        assertThat(found).extracting(ReleaseMismatch::kind).containsExactly(Kind.UNLOCK_ALL_ONLY_RELEASE);
        assertThat(found.get(0).release()).isEqualTo(all);
        assertThat(found.get(0).holds()).containsExactly(lock);
    }
}
