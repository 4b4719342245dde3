package io.github.pgadvisorylint.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadOnlySqlTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT id FROM jobs WHERE done = false",
                "select count(*) from jobs",
                "WITH due AS (SELECT id FROM jobs) SELECT id FROM due ORDER BY id LIMIT 10",
                "SELECT id FROM jobs; SELECT id FROM runs",
                "VALUES (1), (2)",
                "SELECT 'insert into t' AS note"
            })
    void readsOnly(String sql) {
        assertThat(ReadOnlySql.readsOnly(sql)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "UPDATE jobs SET done = true",
                "INSERT INTO jobs (id) VALUES (1)",
                "WITH gone AS (DELETE FROM jobs RETURNING id) SELECT id FROM gone",
                "SELECT id FROM jobs FOR UPDATE SKIP LOCKED",
                "SELECT nextval('job_seq')",
                "SELECT pg_try_advisory_lock(1)",
                "SELECT id INTO archive FROM jobs",
                "SELECT id FROM jobs; DELETE FROM runs",
                "",
                "? = call f()"
            })
    void writesOrLocks(String sql) {
        assertThat(ReadOnlySql.readsOnly(sql)).isFalse();
    }
}
