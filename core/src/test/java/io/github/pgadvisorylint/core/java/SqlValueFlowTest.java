package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQL text as a flow of values: builders, conditionals, formatting, methods returning SQL, JDBC wrappers. */
class SqlValueFlowTest {

    @TempDir
    Path root;

    private List<LockSite> sites(String text) throws Exception {
        Path p = root.resolve("src/Locks.java");
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return Analyzer.builder()
                .threads(1)
                .build()
                .analyze(root, List.of(root))
                .model()
                .sites();
    }

    private static List<String> functions(List<LockSite> sites, int line) {
        return sites.stream()
                .filter(s -> s.region().startLine() == line)
                .map(s -> s.function().sqlName())
                .sorted()
                .toList();
    }

    private List<LockSite> sites(String helper, String caller) throws Exception {
        Path h = root.resolve("src/sqlkit/LockSql.java");
        Files.createDirectories(h.getParent());
        Files.writeString(h, helper);
        return sites(caller);
    }

    private static final String LOCK_SQL = """
            package sqlkit;
            public final class LockSql {
              public static String lock(boolean tryOnly, boolean transaction) {
                StringBuilder sql = new StringBuilder("SELECT pg_");
                if (tryOnly) {
                  sql.append("try_");
                }
                sql.append("advisory_");
                if (transaction) {
                  sql.append("xact_");
                }
                return sql.append("lock(?)").toString();
              }
              public static String pair(boolean transaction) {
                return transaction ? "SELECT pg_advisory_xact_lock(?, ?)" : "SELECT pg_advisory_lock(?, ?)";
              }
              public static String keyed(String key) {
                return "SELECT pg_advisory_unlock(" + key + ")";
              }
            }
            """;

    @Test
    void flagsAtTheCallPickTheTextOfAStaticMethodOfAnotherFile() throws Exception {
        List<LockSite> s = sites(LOCK_SQL, """
                import java.sql.*;
                import sqlkit.LockSql;
                class Locks { // its advisory locks come from LockSql
                  void run(Connection c, long k, int t, boolean wait) throws SQLException {
                    c.prepareStatement(LockSql.lock(false, false)).execute();
                    c.prepareStatement(LockSql.lock(true, true)).execute();
                    c.prepareStatement(LockSql.pair(false)).execute();
                    c.prepareStatement(LockSql.lock(!wait, false)).execute();
                    c.prepareStatement(LockSql.keyed("k")).execute();
                  }
                }
                """);
        assertThat(functions(s, 5)).containsExactly("pg_advisory_lock");
        assertThat(functions(s, 6)).containsExactly("pg_try_advisory_xact_lock");
        assertThat(functions(s, 7)).containsExactly("pg_advisory_lock");
        assertThat(functions(s, 8)).containsExactly("pg_advisory_lock", "pg_try_advisory_lock");
        assertThat(functions(s, 9)).containsExactly("pg_advisory_unlock");
    }

    @Test
    void aBuilderChainWithTwoUndecidedFlagsGivesEveryCall() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  void run(Connection c, boolean attempt, boolean release, long k) throws SQLException {
                    String sql = new StringBuilder("SELECT pg_").append(attempt ? "try_" : "").append("advisory_")
                        .append(release ? "un" : "").append("lock(?)").toString();
                    PreparedStatement ps = c.prepareStatement(sql);
                    ps.setLong(1, k);
                    ps.execute();
                  }
                }
                """);
        // pg_try_advisory_unlock does not exist: three real calls
        assertThat(functions(s, 6)).containsExactly("pg_advisory_lock", "pg_advisory_unlock", "pg_try_advisory_lock");
    }

    @Test
    void literalFlagsOfAMethodReturningSqlPickTheCall() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  private static final boolean SHARED = false;
                  private static String lockSql(boolean attempt, boolean shared) {
                    return "SELECT pg_" + (attempt ? "try_" : "") + "advisory_lock" + (shared ? "_shared" : "") + "(?)";
                  }
                  void a(Connection c, long k) throws SQLException {
                    c.prepareStatement(lockSql(false, SHARED)).execute();
                  }
                  void b(Connection c, long k) throws SQLException {
                    c.prepareStatement(lockSql(true, !SHARED)).execute();
                  }
                }
                """);
        assertThat(functions(s, 8)).containsExactly("pg_advisory_lock");
        assertThat(functions(s, 11)).containsExactly("pg_try_advisory_lock_shared");
        LockSite a =
                s.stream().filter(x -> x.region().startLine() == 8).findFirst().orElseThrow();
        assertThat(a.declarationRegion()).isNotNull();
        assertThat(a.declarationRegion().startLine()).isEqualTo(5);
    }

    @Test
    void aPrivateMethodsFlagIsWhatEveryCallerPasses() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  private void take(Connection c, long k, boolean attempt) throws SQLException {
                    String fn = attempt ? "pg_try_advisory_lock" : "pg_advisory_lock";
                    c.createStatement().execute(String.format("SELECT %s(%d)", fn, k));
                  }
                  void a(Connection c) throws SQLException { take(c, 1, false); }
                  void b(Connection c) throws SQLException { take(c, 2, false); }
                }
                """);
        assertThat(functions(s, 4)).containsExactly("pg_advisory_lock");
    }

    @Test
    void aHelperCallsLiteralFlagPicksTheHelpersOperation() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  private static String sql(boolean attempt) {
                    return (attempt ? "SELECT pg_try_advisory_lock(?)" : "SELECT pg_advisory_lock(?)");
                  }
                  public void take(Connection c, long k, boolean wait) throws SQLException {
                    PreparedStatement ps = c.prepareStatement(sql(!wait));
                    ps.setLong(1, k);
                    ps.execute();
                  }
                  void blocking(Connection c) throws SQLException { take(c, 5, true); }
                  void polling(Connection c) throws SQLException { take(c, 6, false); }
                  void either(Connection c, boolean w) throws SQLException { take(c, 7, w); }
                }
                """);
        assertThat(functions(s, 7)).containsExactly("pg_advisory_lock", "pg_try_advisory_lock");
        assertThat(functions(s, 11)).containsExactly("pg_advisory_lock");
        assertThat(functions(s, 12)).containsExactly("pg_try_advisory_lock");
        assertThat(functions(s, 13)).containsExactly("pg_advisory_lock", "pg_try_advisory_lock");
    }

    @Test
    void aLocalBuilderAppendedUnderIfsGivesEachPath() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  void run(Connection c, boolean wait, long k) throws SQLException {
                    StringBuilder sb = new StringBuilder("SELECT ");
                    if (wait) {
                      sb.append("pg_advisory_lock");
                    } else {
                      sb.append("pg_try_advisory_lock");
                    }
                    sb.append("(?)");
                    PreparedStatement ps = c.prepareStatement(sb.toString());
                  }
                }
                """);
        assertThat(functions(s, 6)).containsExactly("pg_advisory_lock");
        assertThat(functions(s, 8)).containsExactly("pg_try_advisory_lock");
    }

    @Test
    void tooManyAlternativesStaySilent() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  void run(Connection c, boolean a, boolean b, boolean d, boolean e, boolean f) throws SQLException {
                    c.createStatement().execute("SELECT " + (a ? "pg_try_" : "pg_") + "advisory_lock(" + (b ? "1" : "2")
                        + (d ? "1" : "2") + (e ? "1" : "2") + (f ? "1" : "2") + ")");
                  }
                }
                """);
        assertThat(s).isEmpty();
    }

    @Test
    void aWrapperCallWithLiteralSqlIsASiteKeyedThroughItsVarargs() throws Exception {
        List<LockSite> s = sites("""
                import java.sql.*;
                class Locks {
                  static final long JOB = 42;
                  static <T> T queryForObject(Connection c, String sql, Object... args) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                      for (int i = 0; i < args.length; i++) {
                        ps.setObject(i + 1, args[i]);
                      }
                      try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return (T) rs.getObject(1);
                      }
                    }
                  }
                  void run(Connection c) throws SQLException {
                    Boolean got = queryForObject(c, "SELECT pg_try_advisory_lock(?, ?)", 7, JOB);
                  }
                }
                """);
        LockSite site =
                s.stream().filter(x -> x.region().startLine() == 16).findFirst().orElseThrow();
        assertThat(site.api()).isEqualTo(ExecutionApi.JDBC_PREPARED_STATEMENT);
        assertThat(site.key().parts()).extracting(KeyPart::canonical).containsExactly("7", "42");
    }
}
