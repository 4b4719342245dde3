package io.github.pgadvisorylint.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.doxia.sink.impl.Xhtml5BaseSink;
import org.junit.jupiter.api.Test;

/**
 * The site page ({@code report} goal) written through Doxia's XHTML5 sink, the base of the sink {@code mvn site}
 * renders with: text from scanned code (a message quoting a Java string, a file name) stays text, whatever it
 * holds. Doxia's renderer reads {@code {text, url}} in a plain table cell as a link, so a repository could put a
 * {@code javascript:} link on the page; and raw HTML or control characters must not reach it either.
 */
class ReportPageTest {

    private static final String HOSTILE = "{Details, javascript:alert(1)} <script>alert(2)</script>"
            + " <a href=\"javascript:alert(3)\">x</a> & \u001b[31mred\u0007 \u009b2J line\nbreak";

    private static String page(AnalysisResult result) {
        StringWriter out = new StringWriter();
        Xhtml5BaseSink sink = new Xhtml5BaseSink(out);
        new ReportMojo.Page(sink, result).render();
        sink.flush();
        return out.toString();
    }

    @Test
    void textFromScannedCodeNeverBecomesALinkOrMarkup() {
        RuleDescriptor rule = new RuleDescriptor(
                "lock-in-limit-query",
                "LockInLimitQuery",
                Severity.WARNING,
                "Short {Rule, javascript:alert(4)}.",
                "Full.",
                "# lock-in-limit-query\n",
                List.of("correctness"));
        Finding finding = new Finding(
                "lock-in-limit-query",
                Severity.ERROR,
                "pg_advisory_lock(hashtext('" + HOSTILE + "'))",
                new SourceRegion("src/{Details, javascript:alert(5)}/Job.java", 3, 1, 3, 9),
                List.of(),
                "0000000000000001");
        Notification note = new Notification(
                Severity.WARNING,
                "sql-parse-fallback",
                "cannot parse " + HOSTILE,
                SourceRegion.line("db/{File, javascript:alert(6)}.sql", 2));
        String html = page(new AnalysisResult(
                Path.of("/tmp/checkout"),
                List.of(rule),
                List.of(finding),
                List.of(note),
                new LockModel(List.of(), List.of()),
                2,
                2,
                10));

        assertThat(html)
                .doesNotContainIgnoringCase("href=\"javascript:")
                .doesNotContain("<script")
                .doesNotContain("\u001b")
                .doesNotContain("\u0007")
                .doesNotContain("\u009b")
                .contains("{Details, javascript:alert(1)} &lt;script&gt;alert(2)&lt;/script&gt;")
                .contains("&lt;a href=&quot;javascript:alert(3)&quot;&gt;x&lt;/a&gt; &amp; \\u001B[31mred\\u0007"
                        + " \\u009B2J line\\nbreak")
                .contains("src/{Details, javascript:alert(5)}/Job.java:3")
                .contains("db/{File, javascript:alert(6)}.sql:2")
                .contains("Short {Rule, javascript:alert(4)}.");
        // the page's own links, to the rules' documentation, are still there
        assertThat(html).contains("lock-in-limit-query.md\">lock-in-limit-query</a>");
    }
}
