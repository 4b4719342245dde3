package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SARIF writer's output, byte for byte, against files written by the tree-building writer it
 * replaced (issue 27: the writer streams now, and must not change a byte). The tool's version is
 * written as {@code @VERSION@} in the files. {@code -Dsarif.golden.update=true} rewrites them (review
 * the diff).
 */
class SarifGoldenTest {

    private static final Path DIR = Path.of("src/test/resources/golden/sarif");

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("sample", new SarifReporter(), SampleResults.sample()),
                Arguments.of("empty", new SarifReporter(), SampleResults.empty()),
                Arguments.of("suppressed-hidden", new SarifReporter(), SampleResults.withSuppressed()),
                Arguments.of(
                        "suppressed-shown",
                        new SarifReporter(true, "config/.pg-advisory-lint.yml"),
                        SampleResults.withSuppressed()),
                Arguments.of("hostile-text", new SarifReporter(false, "odd \"name\".yml"), hostile()));
    }

    /**
     * Text that JSON must escape (quotes, backslashes, control characters, line and paragraph
     * separators, characters outside the BMP), a finding of a rule that did not run (no
     * {@code ruleIndex}), whole-line and multi-line regions, files in other languages.
     */
    static AnalysisResult hostile() {
        AnalysisResult base = SampleResults.sample();
        String odd = "src/main/java/com/acme/Ünïcode \"q\" \\ \t.java";
        Finding escaped = new Finding(
                "lock-in-limit-query",
                Severity.WARNING,
                "quote \" backslash \\ nul \u0000 bell \u0007 esc \u001B del \u007F ls \u2028 ps \u2029 "
                        + "emoji \uD83D\uDD12 brackets [x] end",
                new SourceRegion(odd, 1, 1, 1, 1),
                List.of(
                        new RelatedLocation(SourceRegion.line("a/[b].sql", 3), "related [one]\nline two"),
                        new RelatedLocation(new SourceRegion("c.yml", 2, 4, 9, 1), "")),
                "ffffffffffffffff");
        Finding unknownRule = new Finding(
                "no-such-rule",
                Severity.NOTE,
                "",
                new SourceRegion("x.sql", 7, 2, 8, 3),
                List.of(),
                "0000000000000000");
        Finding suppressed = new Finding(
                        "session-lock-under-transaction-pooling",
                        Severity.ERROR,
                        "hidden",
                        new SourceRegion(odd, 2, 1, 2, 9),
                        List.of(),
                        "1111111111111111")
                .withSuppression(new FindingSuppression(
                        FindingSuppression.Kind.IN_SOURCE, "", new SourceRegion(odd, 2, 10, 2, 20)));
        List<Notification> notes = List.of(
                new Notification(Severity.WARNING, "special-file", "a named pipe \"p\"", SourceRegion.line(odd, 1)),
                new Notification(Severity.NOTE, "encoding", "tab\there", new SourceRegion("x.sql", 1, 2, 3, 4)));
        return new AnalysisResult(
                Path.of("/tmp/checkout"),
                base.rules(),
                List.of(escaped, unknownRule, base.findings().get(0)),
                notes,
                new LockModel(List.of(), List.of()),
                5,
                2,
                10,
                List.of(suppressed),
                Map.of(OtherLanguage.KOTLIN, 3, OtherLanguage.GROOVY, 1));
    }

    private static String render(SarifReporter reporter, AnalysisResult result) throws Exception {
        StringWriter w = new StringWriter();
        reporter.write(result, w);
        return w.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesTheSameBytesAsBefore(String name, SarifReporter reporter, AnalysisResult result) throws Exception {
        String written = render(reporter, result).replace(ToolInfo.version(), "@VERSION@");
        Path golden = DIR.resolve(name + ".sarif");
        if (Boolean.getBoolean("sarif.golden.update")) {
            Files.createDirectories(DIR);
            Files.writeString(golden, written, StandardCharsets.UTF_8);
        }
        assertThat(written).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
        assertThat(reporter.toBytes(result)).isEqualTo(render(reporter, result).getBytes(StandardCharsets.UTF_8));
    }
}
