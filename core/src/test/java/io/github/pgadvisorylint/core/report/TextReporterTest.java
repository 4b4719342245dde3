package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextReporterTest {

    private static String render(TextReporter reporter, AnalysisResult result) throws IOException {
        StringWriter w = new StringWriter();
        reporter.write(result, w);
        return w.toString();
    }

    @Test
    void writesCompilerStyleLinesSortedThenNotificationsThenSummary() throws IOException {
        assertThat(render(new TextReporter(), SampleResults.sample()))
                .isEqualTo(String.join(
                        "\n",
                        "db/my scripts/Zoë.sql:3:8: warning [lock-in-limit-query] pg_advisory_lock(id) in a query with LIMIT"
                                + " may lock rows[] it does not return",
                        "src/main/java/com/acme/InvoiceJob.java:12:5: note [lock-in-limit-query] Consider a subquery.",
                        "src/main/java/com/acme/InvoiceJob.java:41:17: error [session-lock-under-transaction-pooling]"
                                + " pg_try_advisory_lock(9001) takes a session-level lock under transaction pooling.",
                        "    src/main/resources/application.yml:7:3: related pool_mode is transaction here.",
                        "    pgbouncer.ini:2:1: related PgBouncer configuration.",
                        "src/Broken.java:9:1: error [tool:java-parse-error] cannot parse: unexpected token '}'",
                        "1 error, 1 warning, 1 note in 412 files (0.9 s); 1 tool notification (files or statements not fully analysed)",
                        ""));
    }

    @Test
    void summaryUsesPluralsAndAppendsNotes() throws IOException {
        TextReporter reporter = new TextReporter(List.of("SARIF written to out.sarif", "JSON written to out.json"));
        assertThat(render(reporter, SampleResults.empty()))
                .isEqualTo("0 errors, 0 warnings, 0 notes in 1 file (0.0 s). SARIF written to out.sarif."
                        + " JSON written to out.json\n");
    }
}
