package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.file.Path;
import java.util.List;

/** Hand-built analysis results for the reporter tests. */
final class SampleResults {

    static final String JOB = "src/main/java/com/acme/InvoiceJob.java";
    static final String ODD = "db/my scripts/Zoë.sql";

    private SampleResults() {}

    static RuleDescriptor rule(String id, Severity severity) {
        return new RuleDescriptor(
                id,
                RuleDescriptor.pascalCase(id),
                severity,
                "Short " + id + ".",
                "Full description of " + id + ".",
                "# " + id + "\n\nWhat, why, bad, good.\n",
                List.of("correctness", "concurrency"),
                true,
                severity == Severity.ERROR ? Precision.HIGH : Precision.MEDIUM);
    }

    /** Three findings (one with two related locations, one with brackets), one notification, in scrambled order. */
    static AnalysisResult sample() {
        List<RuleDescriptor> rules = List.of(
                rule("lock-in-limit-query", Severity.WARNING),
                rule("session-lock-under-transaction-pooling", Severity.ERROR));
        Finding pooling = new Finding(
                "session-lock-under-transaction-pooling",
                Severity.ERROR,
                "pg_try_advisory_lock(9001) takes a session-level lock under transaction pooling.",
                new SourceRegion(JOB, 41, 17, 41, 43),
                List.of(
                        new RelatedLocation(
                                new SourceRegion("src/main/resources/application.yml", 7, 3, 7, 26),
                                "pool_mode is transaction here."),
                        new RelatedLocation(SourceRegion.line("pgbouncer.ini", 2), "PgBouncer configuration.")),
                "a1b2c3d4e5f60718");
        Finding limit = new Finding(
                "lock-in-limit-query",
                Severity.WARNING,
                "pg_advisory_lock(id) in a query with LIMIT may lock rows[] it does not return",
                new SourceRegion(ODD, 3, 8, 3, 30),
                List.of(),
                "0011223344556677");
        Finding note = new Finding(
                "lock-in-limit-query",
                Severity.NOTE,
                "Consider a subquery.",
                new SourceRegion(JOB, 12, 5, 13, 2),
                List.of(),
                "8899aabbccddeeff");
        Notification broken = new Notification(
                Severity.ERROR,
                "java-parse-error",
                "cannot parse: unexpected token '}'",
                SourceRegion.line("src/Broken.java", 9));
        return new AnalysisResult(
                Path.of("/tmp/checkout"),
                rules,
                List.of(limit, pooling, note),
                List.of(broken),
                new LockModel(List.of(), List.of()),
                412,
                3,
                900);
    }

    /**
     * The sample plus two suppressed findings: one by an ignore comment with a reason, one by a
     * baseline entry.
     */
    static AnalysisResult withSuppressed() {
        AnalysisResult base = sample();
        Finding inSource = new Finding(
                        "lock-in-limit-query",
                        Severity.ERROR,
                        "Suppressed in source.",
                        new SourceRegion(JOB, 60, 9, 60, 40),
                        List.of(),
                        "aaaabbbbccccdddd")
                .withSuppression(new FindingSuppression(
                        FindingSuppression.Kind.IN_SOURCE,
                        "single-row lookup by primary key",
                        new SourceRegion(JOB, 60, 50, 60, 110)));
        Finding baselined = new Finding(
                        "session-lock-under-transaction-pooling",
                        Severity.ERROR,
                        "Baselined.",
                        new SourceRegion(JOB, 5, 1, 5, 30),
                        List.of(),
                        "eeeeffff00001111")
                .withSuppression(new FindingSuppression(
                        FindingSuppression.Kind.EXTERNAL,
                        "accepted in the baseline baseline.json",
                        SourceRegion.line("baseline.json", 1)));
        return base.withFindings(base.findings(), List.of(baselined, inSource));
    }

    /** No rules, no findings, no notifications, one file. */
    static AnalysisResult empty() {
        return new AnalysisResult(
                Path.of("/tmp/checkout"),
                List.of(),
                List.of(),
                List.of(),
                new LockModel(List.of(), List.of()),
                1,
                0,
                40);
    }
}
