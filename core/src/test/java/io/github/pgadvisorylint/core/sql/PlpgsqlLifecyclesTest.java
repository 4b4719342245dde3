package io.github.pgadvisorylint.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pairing of a session lock with its unlock inside one {@code DO} or function body: which step
 * between them can skip the unlock, and which {@code EXCEPTION} handlers cover them (RULES.md F1, F18).
 */
class PlpgsqlLifecyclesTest {

    private static final SqlAnalyzer ANALYZER = new SqlAnalyzer();

    /** @return the pairing of the first acquisition of the text, or null when it has none */
    private static PlpgsqlLifecycles.Pairing first(String sql) {
        SqlAnalysis analysis = ANALYZER.analyze(sql);
        Map<SqlLockCall, PlpgsqlLifecycles.Pairing> pairs = PlpgsqlLifecycles.analyze(sql, analysis);
        return analysis.calls().stream()
                .filter(c -> c.function().operation().isAcquisition())
                .findFirst()
                .map(pairs::get)
                .orElse(null);
    }

    /** body of a DO block, kind expected, first uncovered step (null when covered) */
    static Stream<Arguments> bodies() {
        return Stream.of(
                Arguments.of(
                        "PERFORM pg_advisory_lock(1); UPDATE t SET a = 1; PERFORM pg_advisory_unlock(1);",
                        PlpgsqlLifecycles.Kind.UNGUARDED,
                        "UPDATE"),
                // RAISE EXCEPTION is a step that fails, not the start of a handler section
                Arguments.of(
                        "PERFORM pg_advisory_lock(1); RAISE EXCEPTION 'no'; PERFORM pg_advisory_unlock(1);",
                        PlpgsqlLifecycles.Kind.UNGUARDED,
                        "RAISE"),
                Arguments.of(
                        "PERFORM pg_advisory_lock(1); RAISE NOTICE 'ok'; x := 3; PERFORM pg_advisory_unlock(1);",
                        PlpgsqlLifecycles.Kind.NOTHING_BETWEEN,
                        null),
                // the same key written with other spacing and case
                Arguments.of(
                        "PERFORM pg_advisory_lock(a.id, 2); BEGIN DELETE FROM t; EXCEPTION WHEN OTHERS THEN "
                                + "PERFORM PG_ADVISORY_UNLOCK(a.ID,2); RAISE; END; PERFORM pg_advisory_unlock( a.id , 2 );",
                        PlpgsqlLifecycles.Kind.HANDLER_COVERS,
                        null),
                // a handler that unlocks another key covers nothing
                Arguments.of(
                        "PERFORM pg_advisory_lock(1); BEGIN DELETE FROM t; EXCEPTION WHEN OTHERS THEN "
                                + "PERFORM pg_advisory_unlock(2); RAISE; END; PERFORM pg_advisory_unlock(1);",
                        PlpgsqlLifecycles.Kind.UNGUARDED,
                        "DELETE"),
                // swallowing every error covers only when the unlock comes after the block
                Arguments.of(
                        "PERFORM pg_advisory_lock(1); BEGIN DELETE FROM t; EXCEPTION WHEN OTHERS THEN NULL; END; "
                                + "PERFORM pg_advisory_unlock(1);",
                        PlpgsqlLifecycles.Kind.HANDLER_COVERS,
                        null),
                Arguments.of(
                        "PERFORM pg_advisory_lock(1); BEGIN DELETE FROM t; EXCEPTION WHEN OTHERS THEN RETURN; END; "
                                + "PERFORM pg_advisory_unlock(1);",
                        PlpgsqlLifecycles.Kind.UNGUARDED,
                        "DELETE"),
                // CASE expressions and END IF do not close the block that holds the handler
                Arguments.of(
                        "BEGIN PERFORM pg_advisory_lock(1); IF x THEN UPDATE t SET a = CASE WHEN b THEN 1 ELSE 2 END; "
                                + "END IF; PERFORM pg_advisory_unlock(1); EXCEPTION WHEN OTHERS THEN "
                                + "PERFORM pg_advisory_unlock_all(); RAISE; END;",
                        PlpgsqlLifecycles.Kind.HANDLER_COVERS,
                        null),
                Arguments.of(
                        "<<outer>> BEGIN PERFORM pg_advisory_lock(1); EXIT outer WHEN done; "
                                + "PERFORM pg_advisory_unlock(1); END outer;",
                        PlpgsqlLifecycles.Kind.UNGUARDED,
                        "EXIT"));
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void pairsTheLockWithItsUnlock(String body, PlpgsqlLifecycles.Kind kind, String step) {
        PlpgsqlLifecycles.Pairing p = first("DO $$ BEGIN " + body + " END $$;");
        assertThat(p).isNotNull();
        assertThat(p.kind()).isEqualTo(kind);
        assertThat(p.release().function().operation().isRelease()).isTrue();
        if (step != null) {
            assertThat(p.step()).isEqualTo(step);
        }
    }

    @Test
    void functionWithoutUnlockHasNoPairing() {
        assertThat(first("CREATE FUNCTION f() RETURNS boolean AS $$ BEGIN RETURN pg_try_advisory_lock(5); END $$ "
                        + "LANGUAGE plpgsql;"))
                .isNull();
    }

    @Test
    void topLevelScriptStatementsHaveNoPairing() {
        assertThat(first("SELECT pg_advisory_lock(5); UPDATE t SET a = 1; SELECT pg_advisory_unlock(5);"))
                .isNull();
    }

    @Test
    void transactionLevelLocksAreNotPaired() {
        assertThat(first("DO $$ BEGIN PERFORM pg_advisory_xact_lock(5); UPDATE t SET a = 1; "
                        + "PERFORM pg_advisory_unlock(5); END $$;"))
                .isNull();
    }

    @Test
    void otherLanguagesAreNotRead() {
        assertThat(first("CREATE FUNCTION f() RETURNS void AS $$ plpy.execute('SELECT pg_advisory_lock(5)') $$ "
                        + "LANGUAGE plpython3u;"))
                .isNull();
    }
}
