package io.github.pgadvisorylint.core.properties;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.java.JavaFrontEnd;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import io.github.pgadvisorylint.core.sql.SqlFileFrontEnd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Issue 10, item 3: generated Java and SQL, valid and mutated (truncated, characters inserted or
 * deleted, random Unicode spliced in), never make the front ends or the analyzer throw. Tries are
 * kept modest so each property stays well under 20 s on two cores.
 */
class NeverThrowsPropertyTest {

    private final SqlAnalyzer sqlAnalyzer = new SqlAnalyzer();
    private final JavaFrontEnd javaFrontEnd = new JavaFrontEnd(sqlAnalyzer);
    private final SqlFileFrontEnd sql = new SqlFileFrontEnd(sqlAnalyzer);

    /** A change to a snippet. */
    private interface Mutation {
        String apply(String s);
    }

    @Property(tries = 250)
    void javaFrontEndNeverThrows(@ForAll("mutatedJava") String source) {
        FileFacts facts = javaFrontEnd.analyze(new SourceFile("src/A.java", source));
        assertThat(facts).isNotNull();
        assertThat(facts.notifications())
                .allSatisfy(n -> assertThat(n.region().path()).isEqualTo("src/A.java"));
    }

    @Property(tries = 250)
    void sqlFrontEndNeverThrows(@ForAll("mutatedSql") String text) {
        FileFacts facts = sql.analyze(new SourceFile("db/V1__a.sql", text));
        assertThat(facts).isNotNull();
        assertThat(facts.sites())
                .allSatisfy(s -> assertThat(s.region().startLine()).isBetween(1, text.split("\n", -1).length + 1));
    }

    @Property(tries = 30)
    void theWholeAnalyzerNeverThrowsOnAMutatedTree(
            @ForAll("mutatedJava") String a, @ForAll("mutatedSql") String b, @ForAll("bytes") byte[] garbage)
            throws Exception {
        Path root = Files.createTempDirectory("never-throws");
        try {
            // a lone surrogate cannot be encoded: getBytes writes '?' for it, as an editor would
            Files.write(root.resolve("A.java"), a.getBytes(StandardCharsets.UTF_8));
            Files.write(root.resolve("b.sql"), b.getBytes(StandardCharsets.UTF_16));
            Files.write(root.resolve("C.java"), garbage);
            AnalysisResult r = Analyzer.builder().threads(2).build().analyze(root, List.of(root));
            assertThat(r.notifications()).noneMatch(n -> n.kind().equals("internal-error"));
        } finally {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
        return random.map(r -> {
            byte[] head = "class C { String s = \"pg_advisory_lock(".getBytes(StandardCharsets.UTF_8);
            byte[] all = Arrays.copyOf(head, head.length + r.length);
            System.arraycopy(r, 0, all, head.length, r.length);
            return all;
        });
    }

    private static Arbitrary<String> lockSql() {
        Arbitrary<String> fn = Arbitraries.of(
                "pg_advisory_lock",
                "pg_try_advisory_lock",
                "pg_advisory_xact_lock",
                "pg_advisory_unlock",
                "pg_try_advisory_xact_lock_shared",
                "pg_advisory_unlock_all");
        Arbitrary<String> key = Arbitraries.oneOf(
                Arbitraries.longs().map(String::valueOf),
                Arbitraries.of("id", "?", ":key", "hashtext('job')", "1, 2", "(SELECT k FROM t)", "$1", ""));
        Arbitrary<String> tail = Arbitraries.of(
                "",
                " FROM jobs LIMIT 1",
                " FROM jobs WHERE done ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
                " FROM t OFFSET 5",
                " WHERE x IN (SELECT 1)",
                " -- comment",
                " /* c */ ",
                " UNION SELECT 1");
        return Combinators.combine(fn, key, tail).as((f, k, t) -> "SELECT " + f + "(" + k + ")" + t);
    }

    @Provide
    Arbitrary<String> validSql() {
        Arbitrary<String> stmt = Arbitraries.oneOf(
                lockSql(),
                lockSql().map(s -> "DO $$ BEGIN PERFORM " + s.substring(7) + "; END $$"),
                lockSql().map(s -> "BEGIN;\n" + s + ";\nCOMMIT"),
                lockSql()
                        .map(s -> "CREATE FUNCTION f() RETURNS void AS $body$ BEGIN PERFORM " + s.substring(7)
                                + "; END; $body$ LANGUAGE plpgsql"),
                Arbitraries.of(
                        "SELECT 'it''s'", "SELECT E'\\n'", "COPY t FROM stdin", "SELECT $$x$$", "\\i other.sql"));
        return stmt.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join(";\n", l) + ";\n");
    }

    @Provide
    Arbitrary<String> validJava() {
        Arbitrary<String> call = Arbitraries.of(
                "st.execute",
                "st.executeQuery",
                "jdbc.queryForObject",
                "em.createNativeQuery",
                "c.prepareStatement",
                "jdbc.update",
                "log.info");
        Arbitrary<String> shape = Arbitraries.of(
                "class A {\n  void f(java.sql.Statement st) throws Exception {\n    %s(\"%s\");\n  }\n}\n",
                "class A {\n  static final String Q = \"%2$s\";\n  void f() { %1$s(Q + \" \" + Q); }\n}\n",
                "class A {\n  void f() {\n    try { %s(\"\"\"\n      %s\n      \"\"\"); } finally { unlock(); }\n  }\n}\n",
                "@SuppressWarnings(\"pg-advisory-lint\")\nrecord A(int id) {\n  void f() { %s(\"%s\" // pg-advisory-lint:ignore\n    ); }\n}\n",
                "enum A { X; void f() { for (long k : keys) { %s(\"%s\", k); } } }\n",
                "interface A { @Query(value = \"%2$s\", nativeQuery = true) void f(); default void g() { %1$s(\"\"); } }\n");
        return Combinators.combine(shape, call, lockSql()).as((s, c, q) -> String.format(s, c, q));
    }

    private static Arbitrary<Mutation> mutation() {
        Arbitrary<Double> at = Arbitraries.doubles().between(0, 1);
        Arbitrary<String> noise = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(6),
                Arbitraries.of(
                        "\"",
                        "\"\"\"",
                        "/*",
                        "*/",
                        "//",
                        "{",
                        "}",
                        "(",
                        ")",
                        "'",
                        "$$",
                        "\\",
                        ";",
                        "\u0000",
                        "\uD83D\uDE00",
                        "\uD800",
                        "\r",
                        "\t",
                        "\u2028",
                        "e\u0301",
                        "\uFEFF"));
        Arbitrary<Mutation> truncate = at.map(f -> s -> s.substring(0, (int) (s.length() * f)));
        Arbitrary<Mutation> insert = Combinators.combine(at, noise).as((f, n) -> s -> {
            int i = (int) (s.length() * f);
            return s.substring(0, i) + n + s.substring(i);
        });
        Arbitrary<Mutation> delete = Combinators.combine(
                        at, Arbitraries.integers().between(1, 8))
                .as((f, len) -> s -> {
                    int i = (int) (s.length() * f);
                    return s.substring(0, i) + s.substring(Math.min(s.length(), i + len));
                });
        Arbitrary<Mutation> none = Arbitraries.just(s -> s);
        return Arbitraries.frequencyOf(
                Tuple.of(1, none), Tuple.of(2, truncate),
                Tuple.of(3, insert), Tuple.of(2, delete));
    }

    private static Arbitrary<String> mutated(Arbitrary<String> valid) {
        return Combinators.combine(valid, mutation().list().ofMaxSize(4)).as((s, ms) -> {
            String out = s;
            for (Mutation m : ms) {
                out = m.apply(out);
            }
            return out;
        });
    }

    @Provide
    Arbitrary<String> mutatedJava() {
        return mutated(validJava());
    }

    @Provide
    Arbitrary<String> mutatedSql() {
        return mutated(validSql());
    }
}
