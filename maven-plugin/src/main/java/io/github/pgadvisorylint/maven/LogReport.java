package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import org.apache.maven.plugin.logging.Log;

/**
 * Prints an analysis result through the Maven log the way compilers do, so that consoles and IDEs
 * link the positions:
 * <pre>
 * [ERROR] src/main/java/com/acme/Job.java:12:23 [lock-in-limit-query] pg_try_advisory_lock(id) ...
 * [ERROR]     src/main/java/com/acme/Job.java:14:9 related unlock that an exception would skip
 * [WARNING] src/main/resources/db/V2.sql:1:1 [tool:sql-parse-error] ...
 * </pre>
 * Paths are relative to the scan root, lines and columns 1-based (columns in UTF-16 code units).
 * Errors go to {@code ERROR}, warnings to {@code WARN}, notes to {@code INFO}. Tool notifications
 * (a file that could not be read or parsed) go to {@code WARN} at levels error and warning and to
 * {@code DEBUG} at level note; they never fail the build.
 */
final class LogReport {

    private LogReport() {}

    /**
     * @param result        the analysis result, findings already sorted
     * @param log           where to print
     * @param printFindings false to print only notifications (the summary is the caller's)
     * @param threshold     the severity from which findings fail the build, or null when none can
     *                      ({@code failOnViolation=false}, {@code failOnSeverity=none}): a finding that
     *                      cannot fail the build is logged at {@code WARNING} at most, with its severity
     *                      in the line ({@code path:14:95 error [rule] ...}), so no {@code [ERROR]} line
     *                      announces a failure that does not come
     */
    static void print(AnalysisResult result, Log log, boolean printFindings, Severity threshold) {
        if (printFindings) {
            for (Finding f : result.findings()) {
                boolean demoted = f.severity() == Severity.ERROR && threshold == null;
                Severity level = demoted ? Severity.WARNING : f.severity();
                String line = position(f.region()) + (demoted ? " error" : "") + " [" + f.ruleId() + "] "
                        + TerminalText.escape(f.message());
                emit(log, level, line);
                for (RelatedLocation r : f.related()) {
                    emit(log, level, "    " + position(r.region()) + " related " + TerminalText.escape(r.message()));
                }
            }
        }
        for (Notification n : result.notifications()) {
            String line = position(n.region()) + " [tool:" + n.kind() + "] " + TerminalText.escape(n.message());
            if (n.level() == Severity.NOTE) {
                log.debug(line);
            } else {
                log.warn(line);
            }
        }
    }

    private static void emit(Log log, Severity severity, String line) {
        switch (severity) {
            case ERROR -> log.error(line);
            case WARNING -> log.warn(line);
            case NOTE -> log.info(line);
        }
    }

    private static String position(SourceRegion r) {
        return TerminalText.escape(r.path()) + ":" + r.startLine() + ":" + r.startColumn();
    }
}
