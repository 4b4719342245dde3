package io.github.pgadvisorylint.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SqlContext of one lock call, computed through JSqlParser and through the forced lexical path:
 * both must agree (RULES.md F8, lock-in-limit-query).
 */
class SqlAnalyzerContextTest {

    private static final SqlAnalyzer PARSER = new SqlAnalyzer();
    private static final SqlAnalyzer LEXICAL = new SqlAnalyzer(false);

    /** sql, clause, limit keyword, readsRows, feedsRowChoice, depth, whether JSqlParser parses it */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "SELECT id FROM t WHERE pg_try_advisory_lock(id) ORDER BY prio LIMIT 1",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT pg_try_advisory_lock(id) FROM t LIMIT 10",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT DISTINCT id, pg_try_advisory_lock(id) FROM t LIMIT 5",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of(
                        "SELECT pg_try_advisory_lock(q.id) FROM (SELECT id FROM t ORDER BY p LIMIT 1) q",
                        SqlClause.SELECT_LIST,
                        null,
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT pg_advisory_lock(1) LIMIT 1", SqlClause.SELECT_LIST, "LIMIT", false, false, 0, true),
                Arguments.of("SELECT pg_advisory_lock(1)", SqlClause.SELECT_LIST, null, false, false, 0, true),
                Arguments.of(
                        "SELECT id FROM t WHERE pg_try_advisory_lock(id) FETCH FIRST 1 ROWS ONLY",
                        SqlClause.WHERE,
                        "FETCH",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT id FROM t WHERE pg_try_advisory_lock(id) OFFSET 5",
                        SqlClause.WHERE,
                        "OFFSET",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT id FROM t WHERE pg_try_advisory_lock(id) LIMIT 1 OFFSET 5",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT id FROM t WHERE pg_try_advisory_lock(id) LIMIT ALL",
                        SqlClause.WHERE,
                        null,
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT a FROM t UNION SELECT pg_try_advisory_lock(id) FROM u LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of(
                        "SELECT pg_try_advisory_lock(id) FROM u UNION ALL SELECT a FROM t LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of(
                        "(SELECT a FROM t) UNION (SELECT pg_try_advisory_lock(id) FROM u) LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        1,
                        true),
                Arguments.of(
                        "WITH c AS (SELECT id FROM t ORDER BY p LIMIT 1) SELECT pg_advisory_lock(id) FROM c",
                        SqlClause.SELECT_LIST,
                        null,
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "WITH c AS (SELECT id FROM t WHERE pg_try_advisory_lock(id) LIMIT 1) SELECT id FROM c",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        1,
                        true),
                Arguments.of(
                        "WITH c AS (SELECT pg_try_advisory_lock(id) FROM t) SELECT * FROM c LIMIT 1",
                        SqlClause.SELECT_LIST,
                        null,
                        true,
                        false,
                        1,
                        true),
                Arguments.of(
                        "SELECT t.id FROM t JOIN u ON u.id = t.id AND pg_try_advisory_lock(u.id) LIMIT 1",
                        SqlClause.JOIN_CONDITION,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT t.id FROM t LEFT JOIN u ON pg_try_advisory_lock(u.id) WHERE t.x = 1",
                        SqlClause.JOIN_CONDITION,
                        null,
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT kind FROM t GROUP BY kind HAVING pg_try_advisory_lock(min(id)) LIMIT 1",
                        SqlClause.HAVING,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of("SELECT 1 FROM pg_advisory_xact_lock(1)", SqlClause.FROM, null, false, false, 0, true),
                Arguments.of(
                        "SELECT 1 FROM pg_catalog.pg_advisory_xact_lock(1) AS l LIMIT 1",
                        SqlClause.FROM,
                        "LIMIT",
                        false,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT id FROM t ORDER BY pg_try_advisory_lock(id) LIMIT 1",
                        SqlClause.ORDER_BY,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of(
                        "SELECT id, pg_try_advisory_lock(id) AS got FROM t ORDER BY got DESC LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of(
                        "SELECT id, pg_try_advisory_lock(id) FROM t ORDER BY 2 LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true),
                Arguments.of(
                        "SELECT id, pg_try_advisory_lock(id) FROM t ORDER BY 1 LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT id FROM t WHERE id IN (SELECT id FROM u WHERE pg_try_advisory_lock(id)) LIMIT 1",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        1,
                        true),
                Arguments.of(
                        "SELECT * FROM (SELECT id FROM t WHERE pg_try_advisory_lock(id)) s LIMIT 3",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        1,
                        true),
                Arguments.of(
                        "SELECT (SELECT pg_advisory_lock(1)) FROM t",
                        SqlClause.SELECT_LIST,
                        null,
                        true,
                        false,
                        1,
                        true),
                Arguments.of(
                        "SELECT id FROM t WHERE status = 'pending' AND pg_try_advisory_lock(0, id) LIMIT 1",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT x FROM t WHERE a IS DISTINCT FROM b AND pg_try_advisory_lock(id) LIMIT 1",
                        SqlClause.WHERE,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT CASE WHEN pg_try_advisory_lock(id) THEN 1 ELSE 0 END FROM t LIMIT 1",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "SELECT coalesce(pg_try_advisory_lock(id), false) FROM t WHERE x = ? LIMIT :n",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "UPDATE jobs SET state = 'x' WHERE pg_try_advisory_lock(id)",
                        SqlClause.WHERE,
                        null,
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "DELETE FROM jobs WHERE pg_try_advisory_xact_lock(id)",
                        SqlClause.WHERE,
                        null,
                        true,
                        false,
                        0,
                        true),
                Arguments.of(
                        "INSERT INTO log (a) SELECT pg_advisory_lock(1)",
                        SqlClause.SELECT_LIST,
                        null,
                        false,
                        false,
                        0,
                        true),
                Arguments.of("CALL pg_advisory_lock(1)", SqlClause.CALL, null, false, false, 0, true),
                Arguments.of(
                        "SELECT pg_try_advisory_lock(id) FROM t GROUP BY id LIMIT 2",
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        true,
                        0,
                        true));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void contextIsTheSameThroughBothPaths(
            String sql, SqlClause clause, String limit, boolean reads, boolean feeds, int depth, boolean parses) {
        SqlContext viaParser = single(PARSER, sql);
        SqlContext viaLexer = single(LEXICAL, sql);
        SqlContext expected = new SqlContext(clause, limit, reads, feeds, depth, parses, sql);
        assertThat(viaParser).isEqualTo(expected);
        assertThat(viaLexer).isEqualTo(new SqlContext(clause, limit, reads, feeds, depth, false, sql));
    }

    private static SqlContext single(SqlAnalyzer analyzer, String sql) {
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.calls()).as("calls in %s", sql).hasSize(1);
        if (analyzer == PARSER) {
            assertThat(a.problems()).as("problems for %s", sql).isEmpty();
        }
        return a.calls().get(0).context();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DO $$ BEGIN PERFORM pg_advisory_lock(id) FROM jobs LIMIT 1; PERFORM pg_advisory_lock(1); END $$",
                "CREATE FUNCTION f() RETURNS bigint AS $f$ DECLARE v bigint; BEGIN SELECT id INTO v FROM t "
                        + "WHERE pg_try_advisory_lock(id) LIMIT 1; RETURN v; END $f$ LANGUAGE plpgsql",
                "DO $$ BEGIN IF pg_try_advisory_xact_lock(1) THEN PERFORM 1; END IF; END $$",
                "DO $$ BEGIN FOR r IN SELECT id FROM t WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 5 LOOP END LOOP; END $$",
                "DO $$ DECLARE r record; BEGIN FOR r IN SELECT id FROM jobs ORDER BY id LOOP "
                        + "PERFORM pg_advisory_xact_lock(r.id); END LOOP; END $$",
                "DO $$ BEGIN SELECT CASE WHEN pg_try_advisory_lock(1) THEN 1 ELSE 0 END INTO v FROM t LIMIT 1; END $$",
                "SELECT a, pg_try_advisory_lock(a) FROM t; WITH x AS (SELECT 1) SELECT pg_advisory_lock(1) FROM x LIMIT 1",
            })
    void bodiesAndScriptsAgreeThroughBothPaths(String sql) {
        SqlAnalysis viaParser = PARSER.analyze(sql);
        SqlAnalysis viaLexer = LEXICAL.analyze(sql);
        assertThat(viaParser.problems()).isEmpty();
        assertThat(viaParser.calls()).isNotEmpty().hasSameSizeAs(viaLexer.calls());
        for (int i = 0; i < viaParser.calls().size(); i++) {
            SqlContext p = viaParser.calls().get(i).context();
            SqlContext l = viaLexer.calls().get(i).context();
            assertThat(new SqlContext(
                            l.clause(),
                            l.limitKeyword(),
                            l.readsRows(),
                            l.feedsRowChoice(),
                            l.depth(),
                            p.parsedBySqlParser(),
                            l.statementText()))
                    .as("call %d of %s", i, sql)
                    .isEqualTo(p);
        }
    }
}
