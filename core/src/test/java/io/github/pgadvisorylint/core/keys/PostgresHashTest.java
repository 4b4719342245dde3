package io.github.pgadvisorylint.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Test vectors measured on PostgreSQL 15 (RULES.md F15). */
class PostgresHashTest {

    @Test
    void hashtextMatchesPostgres15() {
        assertThat(PostgresHash.hashtext("abc")).isEqualTo(-785388649);
        assertThat(PostgresHash.hashtext("")).isEqualTo(-1477818771);
    }

    @Test
    void distinctNamesCollideAsOnTheServer() {
        assertThat(PostgresHash.hashtext("k191518")).isEqualTo(-1546826998);
        assertThat(PostgresHash.hashtext("k289282")).isEqualTo(-1546826998);
    }

    @Test
    void hashtextextendedMatchesPostgres15() {
        assertThat(PostgresHash.hashtextextended("abc", 0)).isEqualTo(-6747756470228489321L);
    }
}
