package io.github.pgadvisorylint.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RowLimitsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT id FROM jobs ORDER BY id LIMIT 10",
                "select id from jobs limit ?",
                "SELECT id FROM jobs LIMIT :batch",
                "SELECT id FROM jobs LIMIT $1 OFFSET $2",
                "SELECT id FROM jobs ORDER BY id FETCH FIRST 5 ROWS ONLY",
                "SELECT * FROM t WHERE id IN (SELECT id FROM u ORDER BY id LIMIT 3)"
            })
    void aLimitOrFetchFirstCapsTheRows(String sql) {
        assertThat(RowLimits.limitsRows(sql)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT id FROM jobs",
                "SELECT id FROM jobs LIMIT ALL",
                "SELECT id FROM jobs WHERE note = 'limit 5'",
                "SELECT \"limit\" FROM quotas",
                "SELECT id FROM jobs -- LIMIT 5",
                "SELECT id, limit_value FROM quotas"
            })
    void noLimitOrOneInTextOrCommentsCapsNothing(String sql) {
        assertThat(RowLimits.limitsRows(sql)).isFalse();
    }
}
