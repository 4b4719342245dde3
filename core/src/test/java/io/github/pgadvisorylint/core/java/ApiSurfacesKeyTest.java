package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lock sites, keys and connection scopes found through each data-access API surface, through the whole pipeline. */
class ApiSurfacesKeyTest {

    @TempDir
    Path root;

    private AnalysisResult analyze() {
        return Analyzer.builder().threads(1).build().analyze(root, List.of(root));
    }

    private List<LockSite> sites() {
        return analyze().model().sites();
    }

    private void write(String path, String text) throws Exception {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void jooqFunctionWithAConstantNameIsKeyedByItsValArguments() throws Exception {
        write("src/AdvisoryLockUtil.java", """
                import static org.jooq.impl.DSL.val;
                import org.jooq.impl.DSL;
                import org.jooq.impl.SQLDataType;
                class AdvisoryLockUtil {
                  private static final String GET_LOCK_FUNCTION = "pg_try_advisory_xact_lock";
                  static Object acquire(Executor e, int key1, int key2) {
                    return e.execute(dsl -> dsl.select(DSL.field("{0}", Boolean.class,
                      DSL.function(GET_LOCK_FUNCTION, SQLDataType.BOOLEAN, val(key1), val(key2)))));
                  }
                }
                """);
        write("src/Caller.java", """
                class Caller {
                  static final int NS = 17;
                  void run(Executor e) { AdvisoryLockUtil.acquire(e, NS, 99); }
                }
                """);
        List<LockSite> s = sites();
        LockSite inner =
                s.stream().filter(x -> x.api() == ExecutionApi.JOOQ).findFirst().orElseThrow();
        assertThat(inner.function().sqlName()).isEqualTo("pg_try_advisory_xact_lock");
        assertThat(inner.key().parts()).extracting(KeyPart::expression).containsExactly("key1", "key2");
        assertThat(inner.region().startLine()).isEqualTo(8); // the constant's use; its declaration is related
        assertThat(inner.declarationRegion().startLine()).isEqualTo(5);
        LockSite call = s.stream().filter(LockSite::viaHelper).findFirst().orElseThrow();
        assertThat(call.key().canonical()).isEqualTo("(17, 99)");
    }

    @Test
    void jooqPlainSqlTemplatesAndConnectionScope() throws Exception {
        write("Ledger.java", """
                import java.sql.Connection;
                import org.jooq.DSLContext;
                import org.jooq.impl.DSL;
                class Ledger {
                  private final DSLContext dsl;
                  Ledger(DSLContext dsl) { this.dsl = dsl; }
                  void a() { dsl.fetchValue("SELECT pg_try_advisory_lock({0})", DSL.val(501L)); }
                  void b() { dsl.execute("SELECT pg_advisory_xact_lock(?, ?)", 7, DSL.inline(8)); }
                  void c(Connection conn) { DSL.using(conn).fetch("SELECT pg_advisory_lock({1}, {0})", 2, 1); }
                  boolean d() { return dsl.select(DSL.field("pg_try_advisory_xact_lock({0})", Boolean.class, 503L)).fetchOne().value1(); }
                }
                """);
        List<LockSite> s = sites();
        assertThat(s).extracting(x -> x.key().canonical()).containsExactly("(501)", "(7, 8)", "(1, 2)", "(503)");
        assertThat(s).allMatch(x -> x.api() == ExecutionApi.JOOQ);
        assertThat(s.get(0).execution().connection()).isEqualTo(ConnectionScope.POOLED_PER_CALL);
        assertThat(s.get(2).execution().connection()).isEqualTo(ConnectionScope.PINNED);
        assertThat(s.get(3).execution().connection()).isEqualTo(ConnectionScope.POOLED_PER_CALL);
        assertThat(s.get(0).region().startColumn()).isEqualTo(37);
    }

    @Test
    void r2dbcVertxJdbiAndMicronautBindings() throws Exception {
        write("A.java", """
                import io.r2dbc.spi.Connection;
                import io.vertx.sqlclient.Pool;
                import io.vertx.sqlclient.Tuple;
                import org.jdbi.v3.core.Handle;
                import io.micronaut.data.jdbc.runtime.JdbcOperations;
                import org.springframework.r2dbc.core.DatabaseClient;
                class A {
                  DatabaseClient client; Pool pool; JdbcOperations ops;
                  void r(Connection c) {
                    var st = c.createStatement("SELECT pg_advisory_xact_lock($1, $2)");
                    st.bind(0, 11).bind("$2", 12);
                    client.sql("SELECT pg_advisory_xact_lock(:k)").bind("k", 13L).then().block();
                  }
                  void v() { var t = Tuple.of(14L); pool.preparedQuery("SELECT pg_advisory_xact_lock($1)").execute(t); }
                  void j(Handle h) {
                    h.createQuery("SELECT pg_advisory_xact_lock(?)").bind(0, 15L).mapTo(Boolean.class).one();
                    h.execute("SELECT pg_advisory_xact_lock(?)", 16L);
                  }
                  void m() { ops.prepareStatement("SELECT pg_advisory_xact_lock(?)", st -> { st.setLong(1, 17L); return st.execute(); }); }
                }
                """);
        List<LockSite> s = sites();
        assertThat(s)
                .extracting(x -> x.key().canonical())
                .containsExactly("(11, 12)", "(13)", "(14)", "(15)", "(16)", "(17)");
        assertThat(s)
                .extracting(LockSite::api)
                .containsExactly(
                        ExecutionApi.R2DBC,
                        ExecutionApi.R2DBC,
                        ExecutionApi.VERTX_SQL,
                        ExecutionApi.JDBI,
                        ExecutionApi.JDBI,
                        ExecutionApi.MICRONAUT_JDBC);
        assertThat(s)
                .extracting(x -> x.execution().connection())
                .containsExactly(
                        ConnectionScope.PINNED,
                        ConnectionScope.POOLED_PER_CALL,
                        ConnectionScope.POOLED_PER_CALL,
                        ConnectionScope.PINNED,
                        ConnectionScope.PINNED,
                        ConnectionScope.POOLED_PER_CALL);
    }

    @Test
    void formatBuildersAndFieldPreparedStatements() throws Exception {
        write("B.java", """
                import java.sql.*;
                class B {
                  static final long K = 41L;
                  private final PreparedStatement lock;
                  B(Connection c) throws SQLException { this.lock = c.prepareStatement("SELECT pg_advisory_lock(?)"); }
                  void f(Statement st) throws SQLException {
                    st.execute(String.format("SELECT pg_advisory_xact_lock(%d, %s)", 1, K));
                    st.execute("SELECT pg_advisory_xact_lock(%2$d)".formatted(9, 2));
                    st.execute(new StringBuffer("SELECT pg_advisory_xact_lock(").append(K + 1).append(')').toString());
                    StringBuilder sb = new StringBuilder("SELECT ");
                    sb.append("pg_advisory_xact_lock(");
                    sb.append(K).append(")");
                    st.execute(sb.toString());
                  }
                  void take(long id) throws SQLException { lock.setLong(1, id); lock.execute(); }
                }
                """);
        write("C.java", "class C { void c(B b) throws Exception { b.take(77L); } }\n");
        List<LockSite> s = sites();
        assertThat(s)
                .extracting(x -> x.key().canonical())
                .containsExactly("(1, 41)", "(2)", "(42)", "(41)", "(id)", "(77)");
        LockSite prepared = s.get(4);
        assertThat(prepared.java().methodName()).isEqualTo("take");
        assertThat(prepared.region().startLine()).isEqualTo(15);
        assertThat(prepared.declarationRegion().startLine()).isEqualTo(5);
    }

    @Test
    void conditionalBuilderAppendsGiveEveryCall() throws Exception {
        write("D.java", """
                class D {
                  void f(java.sql.Statement st, boolean shared) throws Exception {
                    StringBuilder sb = new StringBuilder("SELECT pg_advisory_lock");
                    if (shared) { sb.append("_shared"); }
                    sb.append("(1)");
                    st.execute(sb.toString());
                  }
                }
                """);
        // both paths are possible: the plain name is written whole in one literal and is reported there; the
        // shared one is assembled from two literals and is reported at the execution, its SQL as declaration
        assertThat(sites())
                .filteredOn(x -> x.api() == ExecutionApi.JDBC_STATEMENT)
                .extracting(x -> x.function().sqlName() + "@" + x.region().startLine())
                .containsExactly("pg_advisory_lock@3", "pg_advisory_lock_shared@6");
    }

    @Test
    void springDataProcedureAndMyBatisAnnotationsAreHelpers() throws Exception {
        write("Repo.java", """
                import org.springframework.data.jpa.repository.query.Procedure;
                import org.apache.ibatis.annotations.Param;
                import org.apache.ibatis.annotations.Select;
                interface Repo {
                  @Procedure(procedureName = "pg_advisory_xact_lock") void lock(long key);
                  @Select({"SELECT", "pg_try_advisory_xact_lock(#{ns}, #{id})"}) boolean tryPair(@Param("ns") int a, @Param("id") int b);
                }
                """);
        write("User.java", "class User { Repo repo; void u() { repo.lock(61L); repo.tryPair(6, 2); } }\n");
        List<LockSite> s = sites();
        assertThat(s.stream()
                        .filter(LockSite::viaHelper)
                        .map(x -> x.key().canonical())
                        .toList())
                .containsExactly("(61)", "(6, 2)");
        LockSite procedure = s.stream()
                .filter(x -> x.api() == ExecutionApi.SPRING_DATA_PROCEDURE)
                .findFirst()
                .orElseThrow();
        assertThat(procedure.region().startLine()).isEqualTo(5);
        assertThat(procedure.region().startColumn()).isEqualTo(31);
        LockSite select = s.stream()
                .filter(x -> x.api() == ExecutionApi.MYBATIS)
                .findFirst()
                .orElseThrow();
        assertThat(select.region().startColumn()).isEqualTo(23);
    }

    @Test
    void mapperXmlStatementsAreLocatedExactlyAndCalledThroughTheInterface() throws Exception {
        write("src/main/resources/LockMapper.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
                <mapper namespace="com.acme.LockMapper">
                  <select id="tryLock" resultType="boolean">SELECT pg_try_advisory_lock(#{key})</select>
                  <select id="pair">
                    SELECT &amp;&#32;pg_advisory_xact_lock(#{b}, #{a})
                  </select>
                </mapper>
                """);
        write("src/main/java/com/acme/Jobs.java", """
                package com.acme;
                class Jobs { LockMapper mapper; void j() { mapper.tryLock(42L); mapper.pair(1, 2); } }
                """);
        List<LockSite> all = sites();
        List<LockSite> s =
                all.stream().filter(x -> x.api() == ExecutionApi.MYBATIS).toList();
        LockSite xml = s.get(0);
        assertThat(xml.region().path()).isEqualTo("src/main/resources/LockMapper.xml");
        assertThat(xml.region().startLine()).isEqualTo(4);
        assertThat(xml.region().startColumn()).isEqualTo(52);
        assertThat(s.get(1).region().startLine()).isEqualTo(6);
        assertThat(s.get(1).region().startColumn()).isEqualTo(22);
        // no interface file: parameters in order of first appearance (#{b} first)
        assertThat(all.stream()
                        .filter(LockSite::viaHelper)
                        .map(x -> x.key().canonical())
                        .toList())
                .containsExactly("(42)", "(1, 2)");
    }

    @Test
    void mapperXmlParametersComeFromTheInterfaceWhenItIsScanned() throws Exception {
        write("src/main/resources/M.xml", """
                <mapper namespace="com.acme.M"><select id="pair">SELECT pg_advisory_xact_lock(#{b}, #{a})</select></mapper>
                """);
        write("src/main/java/com/acme/M.java", """
                package com.acme;
                interface M { void pair(@org.apache.ibatis.annotations.Param("a") int first, int b); }
                """);
        write("src/main/java/com/acme/U.java", "package com.acme; class U { M m; void u() { m.pair(1, 2); } }\n");
        assertThat(sites().stream()
                        .filter(LockSite::viaHelper)
                        .map(x -> x.key().canonical())
                        .toList())
                .containsExactly("(2, 1)");
    }

    @Test
    void mapperXmlNeverExpandsOrLoadsEntities() throws Exception {
        Path secret = root.resolve("secret.txt");
        Files.writeString(secret, "pg_advisory_lock(13)");
        write("src/main/resources/Evil.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE mapper [ <!ENTITY ext SYSTEM "%s"> <!ENTITY lol "pg_advisory_lock(12)"> ]>
                <mapper namespace="com.acme.Evil">
                  <select id="x">SELECT &ext; &lol; pg_advisory_unlock(1)</select>
                </mapper>
                """.formatted(secret.toUri()));
        AnalysisResult r = analyze();
        assertThat(r.model().sites()).extracting(x -> x.function().sqlName()).containsExactly("pg_advisory_unlock");
    }

    @Test
    void otherXmlIsNotAMapper() throws Exception {
        write("pom.xml", "<project><description>uses pg_advisory_lock(1)</description></project>\n");
        write("broken.xml", "<mapper namespace=\"a.B\"><select id=\"x\">SELECT pg_advisory_lock(1)</mapper>\n");
        AnalysisResult r = analyze();
        assertThat(r.model().sites()).isEmpty();
    }
}
