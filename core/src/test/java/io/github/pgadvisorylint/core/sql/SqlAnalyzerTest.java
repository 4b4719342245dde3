package io.github.pgadvisorylint.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Behaviour of {@link SqlAnalyzer}: what is a call, where it is, its arguments, statements, bodies. */
class SqlAnalyzerTest {

    private final SqlAnalyzer analyzer = new SqlAnalyzer();

    private List<SqlLockCall> calls(String sql) {
        return analyzer.analyze(sql).calls();
    }

    @ParameterizedTest
    @EnumSource(AdvisoryFunction.class)
    void everyFunctionIsFoundBareAndQualified(AdvisoryFunction f) {
        String args = f == AdvisoryFunction.PG_ADVISORY_UNLOCK_ALL ? "()" : "(42)";
        for (String sql : List.of(
                "SELECT " + f.sqlName() + args,
                "SELECT pg_catalog." + f.sqlName() + args,
                "select " + f.sqlName().toUpperCase(Locale.ROOT) + args,
                "SELECT PG_CATALOG." + f.sqlName() + " " + args)) {
            List<SqlLockCall> c = calls(sql);
            assertThat(c).as(sql).hasSize(1);
            assertThat(c.get(0).function()).isEqualTo(f);
            int at = sql.toLowerCase(Locale.ROOT).lastIndexOf(f.sqlName());
            assertThat(c.get(0).nameStart()).isEqualTo(at);
            assertThat(c.get(0).nameEnd()).isEqualTo(at + f.sqlName().length());
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT pg_advisory_xact_lock_try(1)",
                "SELECT myschema.pg_advisory_lock(1)",
                "SELECT db.pg_catalog.pg_advisory_lock(1)",
                "SELECT pg_advisory_lock('abc')",
                "SELECT pg_advisory_lock(1, 2, 3)",
                "SELECT pg_advisory_lock()",
                "SELECT pg_advisory_unlock_all(1)",
                "SELECT pg_advisory_lock",
                "SELECT * FROM pg_locks WHERE locktype = 'advisory'",
                "-- SELECT pg_advisory_lock(1)\nSELECT 1",
                "/* SELECT pg_advisory_lock(1) /* nested */ still comment pg_advisory_lock(2) */ SELECT 1",
                "SELECT 'pg_advisory_lock(1)'",
                "SELECT E'it\\'s pg_advisory_lock(1)'",
                "SELECT $q$ pg_advisory_lock(1) $q$",
                "SELECT \"PG_ADVISORY_LOCK\"(1)",
                "DROP FUNCTION pg_advisory_lock(bigint)",
                "SELECT pg_advisory_lock(1",
            })
    void lookAlikesCommentsAndStringsAreNotCalls(String sql) {
        assertThat(calls(sql)).as(sql).isEmpty();
    }

    @Test
    void quotedExactNameIsACall() {
        assertThat(calls("SELECT \"pg_advisory_lock\"(1)")).hasSize(1);
    }

    @Test
    void commentsBetweenTokensDoNotHideCalls() {
        String sql = "SELECT /* c */ pg_catalog . /* x */ pg_try_advisory_lock ( -- k\n 7 )";
        List<SqlLockCall> c = calls(sql);
        assertThat(c).hasSize(1);
        assertThat(c.get(0).arguments().get(0).value()).isEqualTo(7L);
        assertThat(c.get(0).nameStart()).isEqualTo(sql.indexOf("pg_try"));
    }

    @Test
    void argumentKindsAndValues() {
        String sql = "SELECT pg_advisory_lock(42), pg_advisory_lock(-7), pg_advisory_lock('42'::bigint), "
                + "pg_advisory_lock(42::bigint), pg_advisory_lock(CAST(42 AS int), (9)), pg_advisory_lock(- (3)), "
                + "pg_advisory_lock(?), pg_advisory_lock(:key), pg_advisory_lock($1), pg_advisory_lock(#{key}), "
                + "pg_advisory_lock(${k}), pg_advisory_lock(id), pg_advisory_lock(t.id), pg_advisory_lock(hashtext('x')), "
                + "pg_advisory_lock(0x2A), pg_advisory_lock(1 + 2), pg_advisory_lock(9223372036854775808), "
                + "pg_advisory_lock(-9223372036854775808), pg_advisory_lock(?::bigint), pg_advisory_lock(-id), "
                + "pg_advisory_lock(1.5), pg_advisory_lock(id::bigint)";
        List<SqlArgument> args =
                calls(sql).stream().flatMap(c -> c.arguments().stream()).toList();
        assertThat(args)
                .extracting(SqlArgument::kind)
                .containsExactly(
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.PARAMETER,
                        KeyPart.Kind.PARAMETER,
                        KeyPart.Kind.PARAMETER,
                        KeyPart.Kind.PARAMETER,
                        KeyPart.Kind.PARAMETER,
                        KeyPart.Kind.COLUMN,
                        KeyPart.Kind.COLUMN,
                        KeyPart.Kind.UNKNOWN,
                        KeyPart.Kind.UNKNOWN,
                        KeyPart.Kind.UNKNOWN,
                        KeyPart.Kind.UNKNOWN,
                        KeyPart.Kind.KNOWN,
                        KeyPart.Kind.PARAMETER,
                        KeyPart.Kind.UNKNOWN,
                        KeyPart.Kind.UNKNOWN,
                        KeyPart.Kind.COLUMN);
        assertThat(args.subList(0, 7)).extracting(SqlArgument::value).containsExactly(42L, -7L, 42L, 42L, 42L, 9L, -3L);
        assertThat(args.get(18).value()).isEqualTo(Long.MIN_VALUE);
        SqlArgument cast = args.get(2);
        assertThat(cast.text()).isEqualTo("'42'::bigint");
        assertThat(sql.substring(cast.start(), cast.end())).isEqualTo("'42'::bigint");
        assertThat(args.get(11).text()).isEqualTo("${k}");
    }

    @Test
    void statementsAreSplitAndNeighboursThatDoNotParseHideNothing() {
        String sql = "BEGIN;\nSET lock_timeout TO '1s';\nLOCK TABLE jobs IN EXCLUSIVE MODE;\n"
                + "SELECT pg_advisory_xact_lock(1);\nSTART TRANSACTION;\nVACUUM t;\n"
                + "SELECT 'a;b', $$ ; $$, pg_try_advisory_xact_lock(2) -- ;\n;\nCOMMIT;\nROLLBACK;;";
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.statements())
                .extracting(SqlStatement::kind)
                .containsExactly(
                        StatementKind.BEGIN,
                        StatementKind.SET,
                        StatementKind.OTHER,
                        StatementKind.SELECT,
                        StatementKind.BEGIN,
                        StatementKind.OTHER,
                        StatementKind.SELECT,
                        StatementKind.COMMIT,
                        StatementKind.ROLLBACK);
        assertThat(a.calls()).extracting(SqlLockCall::statementIndex).containsExactly(3, 6);
        assertThat(a.calls())
                .allSatisfy(c -> assertThat(c.context().parsedBySqlParser()).isTrue());
        assertThat(a.problems()).isEmpty();
        SqlStatement s = a.statements().get(3);
        assertThat(sql.substring(s.start(), s.end())).isEqualTo("SELECT pg_advisory_xact_lock(1)");
        assertThat(a.calls().get(0).context().statementText()).isEqualTo("SELECT pg_advisory_xact_lock(1)");
    }

    @Test
    void statementKinds() {
        String sql = "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x; UPDATE t SET a = 1; DELETE FROM t; "
                + "DO $$ BEGIN END $$; CREATE OR REPLACE FUNCTION f() RETURNS void AS $$ $$ LANGUAGE plpgsql; "
                + "CALL p(); { call f(?) }; END; ABORT; VALUES (1); garbage";
        assertThat(analyzer.analyze(sql).statements())
                .extracting(SqlStatement::kind)
                .containsExactly(
                        StatementKind.INSERT,
                        StatementKind.UPDATE,
                        StatementKind.DELETE,
                        StatementKind.DO_BLOCK,
                        StatementKind.CREATE_FUNCTION,
                        StatementKind.CALL,
                        StatementKind.CALL,
                        StatementKind.COMMIT,
                        StatementKind.ROLLBACK,
                        StatementKind.SELECT,
                        StatementKind.OTHER);
    }

    @Test
    void unparsableStatementWithACallGivesAProblemAndALexicalContext() {
        String sql = "SELECT pg_try_advisory_lock(id) FROM t WHERE x = 1 LIMIT 1 FOR UPDATE SKIP LOCKED NOWAIT OOPS";
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.calls()).hasSize(1);
        SqlContext c = a.calls().get(0).context();
        assertThat(c.parsedBySqlParser()).isFalse();
        assertThat(c.clause()).isEqualTo(SqlClause.SELECT_LIST);
        assertThat(c.limitKeyword()).isEqualTo("LIMIT");
        assertThat(a.problems()).singleElement().satisfies(p -> {
            assertThat(p.offset()).isZero();
            assertThat(p.message())
                    .startsWith("JSqlParser could not parse this statement (")
                    .endsWith("); analysed lexically");
        });
    }

    @Test
    void jdbcEscapesAreCallsWithoutProblems() {
        for (String sql : List.of(
                "{ call pg_advisory_xact_lock(?) }",
                "{ ? = call pg_try_advisory_lock(?) }",
                "{call pg_catalog.pg_advisory_unlock(?, ?)}")) {
            SqlAnalysis a = analyzer.analyze(sql);
            assertThat(a.calls()).as(sql).hasSize(1);
            assertThat(a.calls().get(0).context().clause()).isEqualTo(SqlClause.CALL);
            assertThat(a.calls().get(0).arguments())
                    .allSatisfy(x -> assertThat(x.kind()).isEqualTo(KeyPart.Kind.PARAMETER));
            assertThat(a.problems()).isEmpty();
        }
    }

    @Test
    void doBlockWithPerform() {
        String sql =
                "DO $$\nBEGIN\n  PERFORM pg_advisory_lock(42);\n  PERFORM pg_advisory_lock(id) FROM jobs LIMIT 1;\n"
                        + "  IF pg_try_advisory_xact_lock(7) THEN RAISE NOTICE 'pg_advisory_lock(1)'; END IF;\n"
                        + "  -- PERFORM pg_advisory_unlock(42);\nEND\n$$;";
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.statements())
                .singleElement()
                .extracting(SqlStatement::kind)
                .isEqualTo(StatementKind.DO_BLOCK);
        assertThat(a.problems()).isEmpty();
        List<SqlLockCall> c = a.calls();
        assertThat(c).hasSize(3);
        assertThat(c.get(0).nameStart()).isEqualTo(sql.indexOf("pg_advisory_lock(42)"));
        assertThat(c.get(0).context().clause()).isEqualTo(SqlClause.CALL);
        assertThat(c.get(0).context().statementText()).isEqualTo("PERFORM pg_advisory_lock(42)");
        assertThat(c.get(0).statementIndex()).isZero();
        assertThat(c.get(1).context())
                .isEqualTo(new SqlContext(
                        SqlClause.SELECT_LIST,
                        "LIMIT",
                        true,
                        false,
                        0,
                        true,
                        "PERFORM pg_advisory_lock(id) FROM jobs LIMIT 1"));
        assertThat(c.get(1).arguments().get(0).kind()).isEqualTo(KeyPart.Kind.COLUMN);
        assertThat(c.get(2).function()).isEqualTo(AdvisoryFunction.PG_TRY_ADVISORY_XACT_LOCK);
        assertThat(c.get(2).context().clause()).isEqualTo(SqlClause.OTHER);
        assertThat(c.get(2).context().limitKeyword()).isNull();
    }

    @Test
    void plpgsqlLoopBodyIsItsOwnStatement() {
        String sql = "DO $$ DECLARE r record; BEGIN FOR r IN SELECT id FROM jobs ORDER BY id LOOP "
                + "PERFORM pg_advisory_xact_lock(r.id); END LOOP; END $$";
        SqlLockCall c = calls(sql).get(0);
        assertThat(c.context())
                .isEqualTo(new SqlContext(
                        SqlClause.CALL, null, false, false, 0, true, "PERFORM pg_advisory_xact_lock(r.id)"));
        assertThat(c.arguments().get(0).kind()).isEqualTo(KeyPart.Kind.COLUMN);
    }

    @Test
    void plpgsqlFunctionBodyWithSelectInto() {
        String sql = "CREATE OR REPLACE FUNCTION claim() RETURNS bigint LANGUAGE plpgsql AS $body$\n"
                + "DECLARE v bigint;\nBEGIN\n"
                + "  SELECT id INTO STRICT v FROM t WHERE pg_try_advisory_lock(id) LIMIT 1;\n"
                + "  RETURN v;\nEND;\n$body$;\nSELECT claim();";
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.problems()).isEmpty();
        assertThat(a.statements())
                .extracting(SqlStatement::kind)
                .containsExactly(StatementKind.CREATE_FUNCTION, StatementKind.SELECT);
        SqlLockCall c = a.calls().get(0);
        assertThat(a.calls()).hasSize(1);
        assertThat(c.nameStart()).isEqualTo(sql.indexOf("pg_try_advisory_lock"));
        assertThat(c.context().clause()).isEqualTo(SqlClause.WHERE);
        assertThat(c.context().limitKeyword()).isEqualTo("LIMIT");
        assertThat(c.context().readsRows()).isTrue();
        assertThat(c.context().parsedBySqlParser()).isTrue();
    }

    @Test
    void sqlFunctionBodyAndOtherLanguages() {
        String sql = "CREATE FUNCTION f() RETURNS bool AS $$ SELECT pg_try_advisory_xact_lock(1) $$ LANGUAGE sql;\n"
                + "CREATE FUNCTION g() RETURNS void AS $$ pg_advisory_lock(1) $$ LANGUAGE plpython3u;\n"
                + "CREATE PROCEDURE p() LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(2); END $$";
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.calls()).extracting(SqlLockCall::statementIndex).containsExactly(0, 2);
        assertThat(a.calls().get(1).context().clause()).isEqualTo(SqlClause.CALL);
    }

    @Test
    void dollarQuotedStringOutsideABodyIsNotAnalysed() {
        assertThat(calls("SELECT $x$ pg_advisory_lock(1) $x$ AS s; SELECT pg_advisory_lock(2)"))
                .hasSize(1);
    }

    @Test
    void myBatisPlaceholdersAreSanitisedForJSqlParser() {
        SqlAnalysis a =
                analyzer.analyze("SELECT id FROM t WHERE tenant = #{tenant} AND pg_try_advisory_lock(#{id}) LIMIT 1");
        assertThat(a.problems()).isEmpty();
        assertThat(a.calls().get(0).context().parsedBySqlParser()).isTrue();
        assertThat(a.calls().get(0).context().statementText()).contains("#{tenant}");
    }

    @Test
    void twoCallsInOneStatementMapToTheirOwnContexts() {
        String sql = "SELECT pg_advisory_unlock(id) FROM t WHERE pg_try_advisory_lock(id) AND x IN "
                + "(SELECT y FROM u WHERE pg_try_advisory_lock(y) LIMIT 1)";
        List<SqlLockCall> c = calls(sql);
        assertThat(c)
                .extracting(x -> x.context().clause())
                .containsExactly(SqlClause.SELECT_LIST, SqlClause.WHERE, SqlClause.WHERE);
        assertThat(c).extracting(x -> x.context().depth()).containsExactly(0, 0, 1);
        assertThat(c).extracting(x -> x.context().limitKeyword()).containsExactly(null, null, "LIMIT");
        assertThat(c)
                .allSatisfy(x -> assertThat(x.context().parsedBySqlParser()).isTrue());
    }

    @Test
    void offsetsAreExactAfterNonAsciiAndCrLf() {
        String sql = "SELECT 'é😀',\r\n\t pg_advisory_lock(1) -- ü\r\n";
        SqlLockCall c = calls(sql).get(0);
        assertThat(sql.substring(c.nameStart(), c.nameEnd())).isEqualTo("pg_advisory_lock");
        assertThat(c.context().parsedBySqlParser()).isTrue();
    }

    @Test
    void nullAndEmptyInput() {
        assertThat(analyzer.analyze(null).calls()).isEmpty();
        assertThat(analyzer.analyze("").statements()).isEmpty();
        assertThat(analyzer.analyze(" ;;  -- x\n").statements()).isEmpty();
    }
}
