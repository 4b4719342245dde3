package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The SARIF writer streams (issue 27, item 6): 60,000 findings under {@code -Xmx512m} made the
 * tree-building writer run out of memory where the text report passed. The log is written result by
 * result, so the memory it needs beyond the findings themselves does not grow with their number.
 */
class SarifStreamingTest {

    private static final String[] RULES = {"lock-in-limit-query", "session-lock-under-transaction-pooling"};

    /** {@code n} findings over 500 files, every tenth with two related locations. */
    static AnalysisResult synthetic(int n) {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            files.add("src/main/java/com/acme/module" + (i % 7) + "/Service" + i + ".java");
        }
        List<Finding> findings = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String file = files.get(i % files.size());
            List<RelatedLocation> related = i % 10 == 0
                    ? List.of(
                            new RelatedLocation(SourceRegion.line("src/main/resources/application.yml", 7), "pool"),
                            new RelatedLocation(new SourceRegion(file, 3, 5, 3, 20), "the unlock [here]"))
                    : List.of();
            findings.add(new Finding(
                    RULES[i % 2],
                    i % 3 == 0 ? Severity.ERROR : Severity.WARNING,
                    "pg_try_advisory_lock(" + i + ") is taken on a pooled connection and released outside a finally"
                            + " block, so an exception between them leaves the lock held",
                    new SourceRegion(file, 10 + i / 500, 9, 10 + i / 500, 40),
                    related,
                    String.format(Locale.ROOT, "%016x", i * 2654435761L)));
        }
        return new AnalysisResult(
                Path.of("/tmp/checkout"),
                List.of(SampleResults.rule(RULES[0], Severity.WARNING), SampleResults.rule(RULES[1], Severity.ERROR)),
                findings,
                List.of(),
                new LockModel(List.of(), List.of()),
                files.size(),
                files.size(),
                1);
    }

    /**
     * Counts the bytes written and parses them as they come (Jackson's non-blocking parser), keeping
     * nothing: the log must be one well-formed JSON document.
     */
    static final class ParsingCounter extends OutputStream {
        private final JsonParser parser;
        private final ByteArrayFeeder feeder;
        long bytes;
        int depth;
        int documents;
        int results;
        boolean inResults;
        int resultsDepth = -1;

        ParsingCounter() throws IOException {
            parser = new JsonFactory().createNonBlockingByteArrayParser();
            feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            bytes += len;
            byte[] copy = java.util.Arrays.copyOfRange(b, off, off + len);
            feeder.feedInput(copy, 0, copy.length);
            drain();
        }

        private void drain() throws IOException {
            for (JsonToken t = parser.nextToken(); t != null && t != JsonToken.NOT_AVAILABLE; t = parser.nextToken()) {
                if (t == JsonToken.FIELD_NAME
                        && depth == 3
                        && parser.currentName().equals("results")) {
                    inResults = true;
                    resultsDepth = depth + 1;
                } else if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                    if (inResults && t == JsonToken.START_OBJECT && depth == resultsDepth + 1) {
                        results++;
                    }
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    if (inResults && depth == resultsDepth) {
                        inResults = false;
                    }
                    if (--depth == 0) {
                        documents++;
                    }
                }
            }
        }

        /** Ends the input; throws when the document is cut short or malformed. */
        void finish() throws IOException {
            feeder.endOfInput();
            drain();
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sixtyThousandFindingsAreWrittenAsOneValidLog() throws Exception {
        AnalysisResult result = synthetic(60_000);
        ParsingCounter counter = new ParsingCounter();
        try (Writer w = new BufferedWriter(new OutputStreamWriter(counter, StandardCharsets.UTF_8))) {
            new SarifReporter().write(result, w);
        }
        counter.finish();
        assertThat(counter.documents).isEqualTo(1);
        assertThat(counter.depth).isZero();
        assertThat(counter.results).isEqualTo(60_000);
        assertThat(counter.bytes).isGreaterThan(60_000L * 500);
    }

    @Test
    void aSmallSyntheticLogIsValidSarif() throws Exception {
        StringWriter w = new StringWriter();
        new SarifReporter(true, ".pg-advisory-lint.yml").write(synthetic(25), w);
        assertThat(SarifSchemaCheck.violations(w.toString())).isEmpty();
    }

    /**
     * The memory bound itself, in a JVM of its own with a 96 MB heap: it holds 60,000 findings and
     * writes their log (about 60 MB of text). The tree-building writer ran out of memory here; the
     * streaming one passes with half this heap, so the test has room on any machine.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sixtyThousandFindingsFitASmallHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx96m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Probe.class.getName(),
                        "60000")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(4, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("results 60000");
    }

    /** Run by {@link #sixtyThousandFindingsFitASmallHeap} in a JVM of its own. */
    static final class Probe {
        private Probe() {}

        /**
         * @param args the number of findings
         * @throws IOException when writing fails
         */
        public static void main(String[] args) throws IOException {
            AnalysisResult result = synthetic(Integer.parseInt(args[0]));
            ParsingCounter counter = new ParsingCounter();
            try (Writer w = new BufferedWriter(new OutputStreamWriter(counter, StandardCharsets.UTF_8))) {
                new SarifReporter().write(result, w);
            }
            counter.finish();
            System.out.println("bytes " + counter.bytes + " results " + counter.results);
        }
    }
}
