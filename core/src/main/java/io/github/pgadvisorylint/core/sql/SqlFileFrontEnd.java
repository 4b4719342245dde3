package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.facts.Suppression;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The front end for {@code .sql} files: every statement of the script through the {@link SqlAnalyzer},
 * regions mapped one to one. A script's session ends with the script, so session-level acquisitions at
 * its top level get {@link ReleaseGuarantee#UNKNOWN}; those inside a {@code DO} block or a function body
 * are paired with their unlock in that body ({@link PlpgsqlLifecycles}). Thread-safe.
 */
public final class SqlFileFrontEnd {

    private final SqlAnalyzer sqlAnalyzer;

    /** @param sqlAnalyzer the SQL analyzer to use */
    public SqlFileFrontEnd(SqlAnalyzer sqlAnalyzer) {
        this.sqlAnalyzer = sqlAnalyzer;
    }

    /** Migration tools that run each file in a transaction (Flyway's default on PostgreSQL, Liquibase changelogs). */
    private static final Pattern MIGRATION = Pattern.compile(
            "(?i)(^|/)(db/migration|db/changelog|migrations?|changelog)/|(^|/)[VRU]\\d*(_\\d+)*__[^/]*\\.sql$|(^|/)R__[^/]*\\.sql$");

    /**
     * The transaction a script statement runs in: inside {@code BEGIN ... COMMIT}, a {@code DO} block
     * (one statement, one transaction), a migration tool's file (its own transaction), or psql's
     * autocommit, where each statement is its own transaction and a transaction-level lock ends with
     * its statement (RULES.md F3). A function body's transaction is its caller's: unknown.
     *
     * @param openBegins {@link #openBegins} of the statements
     */
    static ExecutionContext transaction(
            SourceFile file, List<SqlStatement> statements, SqlStatement[] openBegins, int index) {
        if (index < 0 || index >= statements.size()) {
            return ExecutionContext.UNKNOWN;
        }
        StatementKind kind = statements.get(index).kind();
        if (kind == StatementKind.DO_BLOCK) {
            return context(TransactionState.IN_TRANSACTION, SqlAnalysis.DO_BLOCK_TRANSACTION, null);
        }
        if (kind == StatementKind.CREATE_FUNCTION) {
            return ExecutionContext.UNKNOWN;
        }
        SqlStatement open = openBegins[index];
        if (open != null) {
            return context(TransactionState.IN_TRANSACTION, "BEGIN", file.region(open.start(), open.start() + 5));
        }
        if (MIGRATION.matcher(file.path()).find()) {
            return context(
                    TransactionState.IN_TRANSACTION, "migration tools run each migration file in a transaction", null);
        }
        if (index < statements.size() - 1) {
            return context(
                    TransactionState.AUTOCOMMIT,
                    "outside BEGIN ... COMMIT, psql runs each statement of a script"
                            + " in its own transaction (unless run with --single-transaction)",
                    null);
        }
        return ExecutionContext.UNKNOWN;
    }

    /**
     * @param statements a script's top-level statements
     * @return per statement index, the {@code BEGIN} whose transaction is open when it starts (none:
     *     null), read in one pass
     */
    static SqlStatement[] openBegins(List<SqlStatement> statements) {
        SqlStatement[] open = new SqlStatement[statements.size()];
        SqlStatement current = null;
        for (int i = 0; i < statements.size(); i++) {
            open[i] = current;
            StatementKind k = statements.get(i).kind();
            if (k == StatementKind.BEGIN) {
                current = statements.get(i);
            } else if (k == StatementKind.COMMIT || k == StatementKind.ROLLBACK) {
                current = null;
            }
        }
        return open;
    }

    private static ExecutionContext context(TransactionState state, String evidence, SourceRegion region) {
        return new ExecutionContext(state, evidence, region, ConnectionScope.PINNED, "one psql session");
    }

    /**
     * The lifecycle of a session-level acquisition of a script. At the top level of a script it is
     * {@link ReleaseGuarantee#UNKNOWN}: whoever runs the script ends its session when the script stops
     * (psql with {@code ON_ERROR_STOP} exits; without it, a failed statement in autocommit does not skip
     * the next one, so the unlock still runs), and a migration tool's failed migration stops the
     * application that borrowed the connection; a script is not where an error can be handled. Inside
     * a {@code DO} block or a PL/pgSQL or SQL function body, the body can handle errors and the session
     * outlives it, so the pairing of {@link PlpgsqlLifecycles} decides (RULES.md F1, F18).
     */
    private static LockLifecycle sessionLifecycle(SourceFile file, LockSite site, PlpgsqlLifecycles.Pairing pairing) {
        if (pairing == null) {
            return new LockLifecycle(site, ReleaseGuarantee.UNKNOWN, null, "SQL script: the session ends with it");
        }
        SqlLockCall unlock = pairing.release();
        SourceRegion release = file.region(unlock.nameStart(), unlock.nameEnd());
        return switch (pairing.kind()) {
            case HANDLER_COVERS ->
                new LockLifecycle(
                        site,
                        ReleaseGuarantee.FINALLY,
                        release,
                        "an EXCEPTION handler releases the lock when the work fails");
            case NOTHING_BETWEEN ->
                new LockLifecycle(
                        site,
                        ReleaseGuarantee.NOTHING_BETWEEN,
                        release,
                        "nothing between the lock and its unlock can fail");
            case UNGUARDED -> {
                int line =
                        file.region(pairing.stepOffset(), pairing.stepOffset()).startLine();
                boolean leaves = switch (pairing.step()) {
                    case "RETURN", "EXIT", "CONTINUE" -> true;
                    default -> false;
                };
                yield new LockLifecycle(
                        site,
                        ReleaseGuarantee.NOT_IN_FINALLY,
                        release,
                        "the " + pairing.step()
                                + " at line " + line
                                + (leaves ? " leaves the block before" : " can raise an error before")
                                + " the unlock at line " + release.startLine()
                                + ", and no EXCEPTION handler releases the lock");
            }
        };
    }

    /**
     * @param file a decoded {@code .sql} file
     * @return its lock sites, lifecycles and problems; never throws for bad input
     */
    public FileFacts analyze(SourceFile file) {
        SqlAnalysis analysis = sqlAnalyzer.analyze(file.text());
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        Map<String, SiteUsage> usages = new HashMap<>();
        Map<SqlLockCall, PlpgsqlLifecycles.Pairing> bodies = PlpgsqlLifecycles.analyze(file.text(), analysis);
        SqlStatement[] openBegins = openBegins(analysis.statements());
        SqlTimeouts.Timeline timeline = SqlTimeouts.timeline(file.text(), analysis.statements());
        for (SqlLockCall call : analysis.calls()) {
            LockSite site = new LockSite(
                    file.path() + "#" + sites.size(),
                    call.function(),
                    SqlSites.key(call, file::region),
                    file.region(call.nameStart(), call.nameEnd()),
                    null,
                    Language.SQL,
                    ExecutionApi.SQL_FILE,
                    call.context(),
                    null,
                    transaction(file, analysis.statements(), openBegins, call.statementIndex()));
            sites.add(site);
            usages.put(site.id(), SqlSiteUsage.of(file.text(), analysis, timeline, call, file::region));
            if (call.function().operation().isAcquisition()) {
                lifecycles.add(
                        call.function().level() == LockLevel.TRANSACTION
                                ? new LockLifecycle(
                                        site, ReleaseGuarantee.TRANSACTION_END, null, "transaction-level lock")
                                : sessionLifecycle(file, site, bodies.get(call)));
            }
        }
        List<Notification> notes = new ArrayList<>();
        for (SqlProblem p : analysis.problems()) {
            notes.add(new Notification(
                    Severity.NOTE, "sql-parse-fallback", p.message(), file.region(p.offset(), p.offset())));
        }
        return new FileFacts(
                file.path(),
                sites,
                lifecycles,
                notes,
                Suppression.fromComments(file.path(), file.text().lines().toList()),
                List.of(),
                usages);
    }
}
