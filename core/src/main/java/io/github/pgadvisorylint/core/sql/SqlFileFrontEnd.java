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

    /**
     * @param file a decoded {@code .sql} file
     * @return its lock sites, lifecycles and problems; never throws for bad input
     */
    public FileFacts analyze(SourceFile file) {
        SqlAnalysis analysis = sqlAnalyzer.analyze(file.text());
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        for (SqlLockCall call : analysis.calls()) {
            LockSite site = new LockSite(file.path() + "#" + sites.size(), call.function(),
                    SqlSites.key(call, file::region), file.region(call.nameStart(), call.nameEnd()), null,
                    Language.SQL, ExecutionApi.SQL_FILE, call.context(), null);
            sites.add(site);
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
                Suppression.fromComments(file.path(), file.text().lines().toList()));
    }
}
