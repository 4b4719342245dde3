package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.ConcurrentIndexBuild;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.MigrationFacts;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code migration-lock-waits-on-concurrent-index}: a blocking advisory lock ({@code pg_advisory_lock*},
 * {@code pg_advisory_xact_lock*}) taken by code that runs migrations, in a project whose migrations build an index
 * concurrently; reported at the lock, with the builds as related locations. Fact F21: a second instance waiting in
 * that call holds a snapshot the build waits for, while it waits for the lock the first instance holds; PostgreSQL
 * reports a deadlock and, when the waiter was there first, fails the build. Silent: try-locks, projects whose
 * migrations build no index concurrently ({@code DROP INDEX CONCURRENTLY} does not wait for the waiter, F21), locks
 * in code that runs no migrations, test sources.
 */
public final class MigrationLockWaitsOnConcurrentIndexRule extends AbstractRule {

    /** Related locations at most. */
    private static final int MAX_RELATED = 5;

    /** Creates the rule with its metadata and documentation page. */
    public MigrationLockWaitsOnConcurrentIndexRule() {
        // precision: whether the code runs migrations and which files are migrations is read from names and calls
        super(
                "migration-lock-waits-on-concurrent-index",
                Severity.WARNING,
                Precision.LOW,
                "Blocking advisory lock around migrations that build an index concurrently.",
                "A second instance that waits in pg_advisory_lock for the migration lock holds a snapshot; CREATE "
                        + "INDEX CONCURRENTLY and REINDEX CONCURRENTLY in the first instance's migration wait for that "
                        + "snapshot, while the waiter waits for the lock: PostgreSQL reports a deadlock and fails one of "
                        + "them, often the index build, which leaves an invalid index behind.",
                List.of("correctness", "concurrency", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        LockModel model = context.model();
        MigrationFacts migrations = model.migrations();
        List<ConcurrentIndexBuild> builds = migrations.concurrentIndexBuilds();
        if (builds.isEmpty()) {
            return;
        }
        for (LockSite site : model.acquisitions()) {
            if (!reported(model, migrations, site)) {
                continue;
            }
            // the build in the lock's own file (a script that locks and builds), else the first of the project
            ConcurrentIndexBuild first = builds.stream()
                    .filter(b -> b.region().path().equals(site.path()))
                    .findFirst()
                    .orElse(builds.get(0));
            List<RelatedLocation> related = new ArrayList<>();
            for (ConcurrentIndexBuild b : builds.subList(0, Math.min(MAX_RELATED, builds.size()))) {
                related.add(new RelatedLocation(b.region(), b.statement() + " in a migration"));
            }
            context.report(
                    Severity.WARNING,
                    site,
                    site.display() + " waits for the migration lock, and a migration runs " + first.statement()
                            + " (" + first.region().path() + ":"
                            + first.region().startLine() + "): a second instance "
                            + "waiting here holds a snapshot the index build waits for, while it waits for the "
                            + "lock the first instance holds. PostgreSQL reports a deadlock and fails one of them, "
                            + "often the build, which leaves an invalid index (F21). Poll with "
                            + site.function().sqlName().replace("pg_advisory_", "pg_try_advisory_")
                            + ", each try in its own transaction, sleeping between tries.",
                    related);
        }
    }

    /**
     * A blocking acquisition, outside tests, that runs where migrations run; a call of a lock helper is left to the
     * helper's own SQL, which is reported.
     */
    private static boolean reported(LockModel model, MigrationFacts migrations, LockSite site) {
        SiteRole role = model.role(site);
        if (site.function().operation() != LockOperation.ACQUIRE
                || role == SiteRole.DECLARATION
                || role == SiteRole.ANNOTATION
                || role == SiteRole.HELPER_CALL
                || model.inTestSources(site)) {
            return false;
        }
        if (migrations.runnerFiles().contains(site.path())) {
            return true;
        }
        return site.java() != null
                && (mentionsMigration(site.java().typeName())
                        || mentionsMigration(site.java().methodName()));
    }

    private static boolean mentionsMigration(String name) {
        return name != null && name.toLowerCase(Locale.ROOT).contains("migrat");
    }
}
