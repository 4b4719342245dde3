package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import io.github.pgadvisorylint.core.sql.SqlFileFrontEnd;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * The SQL front end over mutated fixture SQL, random token soup, deep nesting and unterminated strings,
 * dollar quotes and comments: it never throws, everything it reports lies inside the file, and a
 * second analysis by another instance gives equal facts.
 */
@AddLifecycleHook(FuzzBudget.class)
class SqlFrontEndFuzzTest {

    private static final String PATH = "db/migration/V1__fuzzed.sql";

    private final SqlFileFrontEnd first = new SqlFileFrontEnd(new SqlAnalyzer());
    private final SqlFileFrontEnd second = new SqlFileFrontEnd(new SqlAnalyzer());

    private static final String[] TOKENS = {
        "SELECT",
        "pg_advisory_lock",
        "pg_try_advisory_lock",
        "pg_advisory_unlock",
        "pg_advisory_xact_lock",
        "pg_advisory_unlock_all",
        "pg_try_advisory_xact_lock_shared",
        "hashtext",
        "(",
        ")",
        ",",
        ";",
        "1",
        "-42",
        "9223372036854775808",
        "'x'",
        "'",
        "''",
        "E'\\''",
        "$$",
        "$body$",
        "$1",
        "?",
        ":key",
        "/*",
        "*/",
        "--",
        "\n",
        "FROM",
        "jobs",
        "WHERE",
        "LIMIT",
        "OFFSET",
        "ORDER BY",
        "FOR UPDATE SKIP LOCKED",
        "UNION",
        "BEGIN",
        "COMMIT",
        "ROLLBACK",
        "END",
        "DO",
        "LANGUAGE",
        "plpgsql",
        "CREATE FUNCTION f() RETURNS void AS",
        "PERFORM",
        "EXCEPTION WHEN OTHERS THEN",
        "IF",
        "THEN",
        "ELSE",
        "LOOP",
        "CASE",
        "WHEN",
        "RETURN",
        "COPY t FROM stdin",
        "\\.",
        "\\i",
        "\"q\"",
        "U&'\\0041'",
        "::bigint",
        "[",
        "]",
        "ARRAY",
        "WITH",
        "AS",
        "set lock_timeout = 5",
    };

    @Provide
    Arbitrary<String> sql() {
        Arbitrary<String> mutated = Mutations.mutatedText(
                Corpus.sql().stream().map(Corpus.Seed::text).toList());
        Arbitrary<String> soup = Arbitraries.of(TOKENS)
                .list()
                .ofMaxSize(80)
                .flatMap(tokens -> Arbitraries.of(" ", "", "\n").map(sep -> String.join(sep, tokens)));
        Arbitrary<String> nested = Combinators.combine(
                        Arbitraries.integers().between(1, 600),
                        Mutations.fraction(),
                        Arbitraries.of(
                                new String[] {"SELECT ", "(", "pg_advisory_lock(1)", ")", ";"},
                                new String[] {"DO $$ ", "BEGIN ", "PERFORM pg_advisory_lock(2);", " END;", " $$;"},
                                new String[] {"", "/* ", "SELECT pg_advisory_lock(3);", " */", ""},
                                new String[] {"SELECT ", "CASE WHEN pg_try_advisory_lock(4) THEN ", "1", " END", ";"},
                                new String[] {"SELECT ", "ARRAY[", "pg_advisory_lock(5)", "]", ";"},
                                new String[] {"", "WITH a AS (SELECT ", "pg_advisory_lock(6)", ") SELECT 1", ";"}))
                .as((depth, closed, parts) -> parts[0]
                        + parts[1].repeat(depth)
                        + parts[2]
                        + parts[3].repeat((int) (depth * closed))
                        + parts[4]);
        Arbitrary<String> unterminated = Combinators.combine(
                        mutated.map(s -> s.length() > 400 ? s.substring(0, 400) : s),
                        Arbitraries.of(
                                "'",
                                "E'",
                                "E'\\",
                                "$$",
                                "$tag$",
                                "$a$ $b$",
                                "/*",
                                "/* /* */",
                                "\"",
                                "U&'",
                                "--",
                                "DO $$ BEGIN",
                                "CREATE FUNCTION f() RETURNS void AS '",
                                "(",
                                "[",
                                "$1"),
                        Arbitraries.of("", "SELECT pg_advisory_lock(7);", "pg_advisory_unlock(", "\n;\n", "'"))
                .as((head, opener, tail) -> head + opener + tail);
        return Arbitraries.oneOf(mutated, soup, nested, unterminated);
    }

    @Property(tries = 300, seed = "2707003")
    void analysisNeverThrowsStaysInTheFileAndRepeats(@ForAll("sql") String text) throws Exception {
        SourceFile file = new SourceFile(PATH, text);
        FileFacts once = Guard.call(text, () -> first.analyze(file));
        FileFacts again = Guard.call(text, () -> second.analyze(file));
        Located.inFile(once, file);
        assertThat(again).isEqualTo(once);
        Statistics.label("outcome")
                .collect(
                        once.sites().isEmpty() ? "no lock site" : "lock sites",
                        once.notifications().isEmpty() ? "parsed" : "fallback");
        Statistics.label("outcome").coverage(c -> {
            c.check("lock sites", "parsed").percentage(p -> p >= 10);
            c.check("lock sites", "fallback").percentage(p -> p >= 10);
        });
    }
}
