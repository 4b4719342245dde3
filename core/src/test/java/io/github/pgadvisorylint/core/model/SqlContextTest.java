package io.github.pgadvisorylint.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The printed form of a {@link SqlContext}, which digests of helper summaries read once per lock site. */
class SqlContextTest {

    @Test
    void theStatementTextIsPrintedAsItsLengthAndHashNotInFull() {
        String text = "SELECT " + "pg_advisory_lock(1), ".repeat(10_000) + "1";
        SqlContext c = new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, text);
        assertThat(c.toString())
                .hasSizeLessThan(200)
                .contains(text.length() + " chars")
                .contains("clause=SELECT_LIST");
    }

    @Test
    void differentTextsOfOneLengthPrintDifferently() {
        SqlContext a = new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT pg_advisory_lock(1)");
        SqlContext b = new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT pg_advisory_lock(2)");
        assertThat(a.toString()).isNotEqualTo(b.toString());
    }
}
