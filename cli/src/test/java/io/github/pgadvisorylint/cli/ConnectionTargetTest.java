package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** What {@code locks} connects to, from a JDBC URL, a libpq connection URI, or libpq's environment variables. */
class ConnectionTargetTest {

    private static UnaryOperator<String> env(Map<String, String> vars) {
        return vars::get;
    }

    @Test
    void aJdbcUrlIsUsedAsIs() {
        String url = "jdbc:postgresql://db:6000/app?user=ops&ssl=true";
        assertThat(ConnectionTarget.jdbcUrl(url, env(Map.of("PGHOST", "other")), "me"))
                .isEqualTo(url);
    }

    @Test
    void aConnectionUriBecomesTheJdbcUrlWithUserAndPasswordAsParameters() {
        assertThat(ConnectionTarget.jdbcUrl(
                        "postgresql://ops:s%40cret@db.internal:5433/invoices?sslmode=require", env(Map.of()), "me"))
                .isEqualTo("jdbc:postgresql://db.internal:5433/invoices?user=ops&password=s%40cret&sslmode=require");
        assertThat(ConnectionTarget.jdbcUrl("postgres://ops@db/app", env(Map.of()), "me"))
                .isEqualTo("jdbc:postgresql://db/app?user=ops");
        assertThat(ConnectionTarget.jdbcUrl("postgresql://h1:5432,h2:5433/app", env(Map.of()), "me"))
                .isEqualTo("jdbc:postgresql://h1:5432,h2:5433/app");
    }

    @Test
    void aUriWithoutHostTakesPghostAndPgport() {
        assertThat(ConnectionTarget.jdbcUrl(
                        "postgresql:///app?user=ops", env(Map.of("PGHOST", "db", "PGPORT", "6432")), "me"))
                .isEqualTo("jdbc:postgresql://db:6432/app?user=ops");
    }

    @Test
    void withoutUrlLibpqVariablesAndDefaults() {
        assertThat(ConnectionTarget.jdbcUrl(
                        null,
                        env(Map.of(
                                "PGHOST",
                                "db.internal",
                                "PGPORT",
                                "5433",
                                "PGUSER",
                                "ops",
                                "PGDATABASE",
                                "invoices",
                                "PGSSLMODE",
                                "verify-full")),
                        "me"))
                .isEqualTo("jdbc:postgresql://db.internal:5433/invoices?user=ops&sslmode=verify-full");
        // libpq's defaults: localhost, 5432, the system user, a database named as the user
        assertThat(ConnectionTarget.jdbcUrl(null, env(Map.of()), "alice"))
                .isEqualTo("jdbc:postgresql://localhost:5432/alice?user=alice");
        assertThat(ConnectionTarget.jdbcUrl(null, env(Map.of("PGUSER", "ops")), "alice"))
                .isEqualTo("jdbc:postgresql://localhost:5432/ops?user=ops");
    }

    @Test
    void badInputIsOneClearLineThatNeverShowsThePassword() {
        assertThatThrownBy(() -> ConnectionTarget.jdbcUrl("mysql://u:hunter2@h/db", env(Map.of()), "me"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("--url must be a PostgreSQL JDBC URL")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> ConnectionTarget.jdbcUrl(null, env(Map.of("PGHOST", "/var/run/postgresql")), "me"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("Unix-domain socket");
        assertThatThrownBy(() -> ConnectionTarget.jdbcUrl(null, env(Map.of("PGPORT", "54x")), "me"))
                .isInstanceOf(InputException.class)
                .hasMessage("PGPORT must be a port number, not 54x");
        assertThatThrownBy(() -> ConnectionTarget.jdbcUrl("postgresql://u:hunter2%zz@h/db", env(Map.of()), "me"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("percent-escape")
                .hasMessageNotContaining("hunter2");
    }
}
