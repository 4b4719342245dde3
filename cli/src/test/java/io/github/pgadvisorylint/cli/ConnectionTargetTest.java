package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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
                .hasMessage("PGPORT must be port numbers from 1 to 65535, separated by commas, not 54x");
        assertThatThrownBy(() -> ConnectionTarget.jdbcUrl("postgresql://u:hunter2%zz@h/db", env(Map.of()), "me"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("percent-escape")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aPasswordWithSlashQuestionMarkOrAtIsPartOfTheUserInfoAndNeverShown() {
        assertThat(ConnectionTarget.jdbcUrl("postgresql://app:s3/cr3t@db.internal:5432/app", env(Map.of()), "me"))
                .isEqualTo("jdbc:postgresql://db.internal:5432/app?user=app&password=s3%2Fcr3t");
        assertThat(ConnectionTarget.jdbcUrl("postgresql://app:pa?x=s3@cr3t@db:5432/app", env(Map.of()), "me"))
                .isEqualTo("jdbc:postgresql://db:5432/app?user=app&password=pa%3Fx%3Ds3%40cr3t");
        assertThat(UrlMask.mask(ConnectionTarget.jdbcUrl("postgresql://app:s3/cr3t@db/app", env(Map.of()), "me")))
                .doesNotContain("cr3t");
    }

    @Test
    void libpqHostAndPortListsAndTheirMistakes() {
        assertThat(ConnectionTarget.jdbcUrl(
                        null, env(Map.of("PGHOST", "h1,h2", "PGPORT", "6432", "PGUSER", "u")), "me"))
                .isEqualTo("jdbc:postgresql://h1:6432,h2:6432/u?user=u");
        assertThat(ConnectionTarget.jdbcUrl(
                        null, env(Map.of("PGHOST", "h1,::1", "PGPORT", "1,2", "PGUSER", "u")), "me"))
                .isEqualTo("jdbc:postgresql://h1:1,[::1]:2/u?user=u");
        for (Map<String, String> bad : List.of(
                Map.of("PGPORT", "99999"),
                Map.of("PGPORT", "0"),
                Map.of("PGHOST", "h1,h2,h3", "PGPORT", "1,2"),
                Map.of("PGHOST", "127.0.0.1:1/x?password=p"))) {
            assertThatThrownBy(() -> ConnectionTarget.jdbcUrl(null, env(bad), "me"))
                    .as(bad.toString())
                    .isInstanceOf(InputException.class)
                    .hasMessageStartingWith("PG");
        }
        assertThatThrownBy(() ->
                        ConnectionTarget.jdbcUrl("postgresql:///db?host=/var/run/postgresql", env(Map.of()), "me"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("Unix-domain socket");
        assertThatThrownBy(() ->
                        ConnectionTarget.jdbcUrl("postgresql://%2Fvar%2Frun%2Fpostgresql/db", env(Map.of()), "me"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("Unix-domain socket");
    }

    @Test
    void timeoutParametersOfTheUrlGiveWayToTheCommandsTimeout() {
        assertThat(LiveLocks.withoutTimeouts(
                        "jdbc:postgresql://db/app?loginTimeout=0&user=u&SocketTimeout=0&connectTimeout=9"))
                .isEqualTo("jdbc:postgresql://db/app?user=u");
        assertThat(LiveLocks.withoutTimeouts("jdbc:postgresql://db/app?socketTimeout=0"))
                .isEqualTo("jdbc:postgresql://db/app");
        assertThat(LiveLocks.withoutTimeouts("jdbc:postgresql://db/app")).isEqualTo("jdbc:postgresql://db/app");
    }
}
