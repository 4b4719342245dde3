package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link GenericNesting}: only type arguments count, not comparisons, shifts, comments or strings. */
class GenericNestingTest {

    private static String nested(int depth) {
        return "Map<String, ".repeat(depth) + "X" + ">".repeat(depth);
    }

    @Test
    void typeArgumentsPastTheLimitAreFoundAtTheFirstTooDeepBracket() {
        String text = "class A { " + nested(101) + " f; }";
        assertThat(GenericNesting.pastLimit(text)).isEqualTo("class A { ".length() + 100 * "Map<String, ".length() + 3);
        assertThat(GenericNesting.pastLimit("class A { " + nested(100) + " f; }"))
                .isEqualTo(-1);
    }

    @Test
    void comparisonsShiftsCommentsAndLiteralsAddNoLevel() {
        String comparisons = "boolean f() { return " + "a < b && ".repeat(200) + "c <= d || e << 2 < f; }";
        String calls = "void g() { h(" + "a < b, ".repeat(50) + "c); i(" + "x < y ? 1 : 2, ".repeat(60) + "0); }";
        String hidden = "// " + "List<".repeat(300) + "\n/* " + "List<".repeat(300) + " */ String s = \""
                + "List<".repeat(300) + "\"; char c = '<'; String t = \"\"\"\n" + "List<".repeat(300) + "\n\"\"\";";
        assertThat(GenericNesting.pastLimit(comparisons)).isEqualTo(-1);
        assertThat(GenericNesting.pastLimit(calls)).isEqualTo(-1);
        assertThat(GenericNesting.pastLimit(hidden)).isEqualTo(-1);
    }
}
