package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.analysis.FileFacts;
import io.github.pgadvisorylint.core.analysis.Notification;
import io.github.pgadvisorylint.core.analysis.Suppression;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.rule.Severity;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.SourceRegion;
import io.github.pgadvisorylint.core.model.TransactionState;

/**
 * The front end for {@code .sql} files: every statement of the script through the {@link SqlAnalyzer},
 * regions mapped one to one. A script's session ends with the script, so session-level acquisitions
 * get {@link ReleaseGuarantee#UNKNOWN} here. Thread-safe.
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
     */
    static ExecutionContext transaction(SourceFile file, List<SqlStatement> statements, int index) {
        if (index < 0 || index >= statements.size()) {
            return ExecutionContext.UNKNOWN;
        }
        StatementKind kind = statements.get(index).kind();
        if (kind == StatementKind.DO_BLOCK) {
            return context(TransactionState.IN_TRANSACTION, "a DO block runs as one transaction", null);
        }
        if (kind == StatementKind.CREATE_FUNCTION) {
            return ExecutionContext.UNKNOWN;
        }
        SqlStatement open = null;
        for (int i = 0; i < index; i++) {
            StatementKind k = statements.get(i).kind();
            if (k == StatementKind.BEGIN) {
                open = statements.get(i);
            } else if (k == StatementKind.COMMIT || k == StatementKind.ROLLBACK) {
                open = null;
            }
        }
        if (open != null) {
            return context(TransactionState.IN_TRANSACTION, "BEGIN", file.region(open.start(), open.start() + 5));
        }
        if (MIGRATION.matcher(file.path()).find()) {
            return context(TransactionState.IN_TRANSACTION, "migration tools run each migration file in a transaction", null);
        }
        if (index < statements.size() - 1) {
            return context(TransactionState.AUTOCOMMIT, "outside BEGIN ... COMMIT, psql runs each statement of a script"
                    + " in its own transaction (unless run with --single-transaction)", null);
        }
        return ExecutionContext.UNKNOWN;
    }

    private static ExecutionContext context(TransactionState state, String evidence, SourceRegion region) {
        return new ExecutionContext(state, evidence, region, ConnectionScope.PINNED, "one psql session");
    }

    /**
     * @param file a decoded {@code .sql} file
     * @return its lock sites, lifecycles and problems; never throws for bad input
     */
    public FileFacts analyze(SourceFile file) {
        SqlAnalysis analysis = sqlAnalyzer.analyze(file.text());
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        java.util.Map<String, io.github.pgadvisorylint.core.model.SiteUsage> usages = new java.util.HashMap<>();
        for (SqlLockCall call : analysis.calls()) {
            LockSite site = new LockSite(file.path() + "#" + sites.size(), call.function(),
                    SqlSites.key(call, file::region), file.region(call.nameStart(), call.nameEnd()), null,
                    Language.SQL, ExecutionApi.SQL_FILE, call.context(), null,
                    transaction(file, analysis.statements(), call.statementIndex()));
            sites.add(site);
            usages.put(site.id(), SqlSiteUsage.of(file.text(), analysis, call, file::region));
            if (call.function().operation().isAcquisition()) {
                lifecycles.add(call.function().level() == LockLevel.TRANSACTION
                        ? new LockLifecycle(site, ReleaseGuarantee.TRANSACTION_END, null, "transaction-level lock")
                        : new LockLifecycle(site, ReleaseGuarantee.UNKNOWN, null, "SQL script: the session ends with it"));
            }
        }
        List<Notification> notes = new ArrayList<>();
        for (SqlProblem p : analysis.problems()) {
            notes.add(new Notification(Severity.NOTE, "sql-parse-fallback", p.message(),
                    file.region(p.offset(), p.offset())));
        }
        return new FileFacts(file.path(), sites, lifecycles, notes,
                Suppression.fromComments(file.path(), file.text().lines().toList()), List.of(), usages);
    }
}
