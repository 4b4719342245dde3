package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.java.JavaFrontEnd;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * The Java front end over the repository's own Java fixtures, truncated and garbled, over Java token
 * soup and over arbitrary text: it never throws (a bad file is a located notification), everything it
 * reports lies inside the file, and a second analysis, by another front end instance, gives equal facts.
 */
@AddLifecycleHook(FuzzBudget.class)
class JavaFrontEndFuzzTest {

    private static final String PATH = "src/main/java/a/Fuzzed.java";

    private final JavaFrontEnd first = new JavaFrontEnd(new SqlAnalyzer());
    private final JavaFrontEnd second = new JavaFrontEnd(new SqlAnalyzer());

    /** Java syntax, most of it around locks, for token soup. */
    private static final String[] TOKENS = {
        "class",
        "A",
        "{",
        "}",
        "(",
        ")",
        ";",
        "void",
        "f",
        "st",
        ".",
        "execute",
        "\"SELECT pg_advisory_lock(1)\"",
        "\"SELECT pg_try_advisory_lock(\"",
        "+",
        "key",
        "\")\"",
        "\"\"\"",
        "\n",
        "try",
        "finally",
        "catch",
        "(Exception e)",
        "if",
        "else",
        "while",
        "for",
        "return",
        "new",
        "->",
        "::",
        "<",
        ">",
        "?",
        ":",
        "@",
        "Override",
        "Transactional",
        "interface",
        "enum",
        "record",
        "static",
        "final",
        "long",
        "int",
        "=",
        "42L",
        "0x7FFFFFFFL",
        "switch",
        "case",
        "default",
        "yield",
        "var",
        "this",
        "super",
        "synchronized",
        "throws",
        "throw",
        "import",
        "package",
        "a.b",
        "*",
        "//",
        "/*",
        "*/",
        "'",
        "'\\u0027'",
        "\\u0022",
        ",",
        "...",
        "[]",
        "instanceof",
    };

    @Provide
    Arbitrary<String> mutatedJava() {
        List<String> seeds = Corpus.java().stream().map(Corpus.Seed::text).toList();
        // one or two edits often leave the file parseable, so the extraction runs on odd code; more break it
        Arbitrary<String> soup = Arbitraries.of(TOKENS)
                .list()
                .ofMaxSize(80)
                .flatMap(tokens -> Arbitraries.of(" ", "", "\n").map(sep -> String.join(sep, tokens)));
        return Arbitraries.frequencyOf(
                Tuple.of(4, Mutations.mutatedText(Arbitraries.of(seeds), seeds, 2)),
                Tuple.of(4, Mutations.mutatedText(seeds)),
                Tuple.of(1, soup),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(300)));
    }

    @Property(tries = 300, seed = "2707001")
    void analysisNeverThrowsStaysInTheFileAndRepeats(@ForAll("mutatedJava") String text) throws Exception {
        SourceFile file = new SourceFile(PATH, text);
        FileFacts once = Guard.call(text, () -> first.analyze(file));
        FileFacts again = Guard.call(text, () -> second.analyze(file));
        Located.inFile(once, file);
        assertThat(again).isEqualTo(once);
        Statistics.label("outcome").collect(outcome(once));
        Statistics.label("outcome").coverage(c -> {
            c.check("lock sites").percentage(p -> p >= 20);
            c.check("not parsed").percentage(p -> p >= 15);
        });
    }

    /** What a try reached, so a generator that only makes garbage (or only valid code) fails. */
    private static String outcome(FileFacts facts) {
        if (!facts.sites().isEmpty()) {
            return "lock sites";
        }
        return facts.notifications().stream().anyMatch(n -> n.kind().startsWith("java-"))
                ? "not parsed"
                : "no lock site";
    }

    @Property(tries = 150, seed = "2707002")
    void outlinesNeverThrowAndRepeat(@ForAll("mutatedJava") String text) throws Exception {
        SourceFile file = new SourceFile(PATH, text);
        List<Object> once = Guard.call(text, () -> outline(first, file));
        List<Object> again = Guard.call(text, () -> outline(second, file));
        assertThat(again).isEqualTo(once);
    }

    /** What the Java part takes from an outline: its text, its failure, the names it refers to and calls. */
    private static List<Object> outline(JavaFrontEnd frontEnd, SourceFile file) {
        JavaFrontEnd.OutlineParse o = frontEnd.outline(file);
        if (o.parsed().unit() == null) {
            Located.inFile(o.parsed().failed(), file);
            return List.of(
                    String.valueOf(o.outline() == null ? null : o.outline().text()),
                    o.parsed().failed());
        }
        return List.of(
                o.outline() == null ? "" : o.outline().text(),
                JavaFrontEnd.referencedTypeNames(o.parsed().unit()),
                JavaFrontEnd.calledNames(o.parsed().unit()));
    }
}
