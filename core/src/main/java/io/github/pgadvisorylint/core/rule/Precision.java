package io.github.pgadvisorylint.core.rule;

/**
 * How often a rule's findings are true, as GitHub code scanning reads a SARIF rule's
 * {@code properties.precision} ({@code very-high}, {@code high}, {@code medium}, {@code low}): it ranks
 * alerts by it. The value follows from what the rule rests on, written next to each rule.
 */
public enum Precision {

    /** A fact of the text alone (a literal out of range, a suppression that matched nothing): no judgement. */
    VERY_HIGH("very-high"),

    /** A fact of one query's or one expression's syntax, or of values computed statically. */
    HIGH("high"),

    /** A fact of control flow, transactions or connections inferred across methods and configuration. */
    MEDIUM("medium"),

    /** An audit whose finding may be handled where the tool cannot see (server settings, deployment). */
    LOW("low");

    private final String sarifValue;

    Precision(String sarifValue) {
        this.sarifValue = sarifValue;
    }

    /** @return the SARIF {@code properties.precision} value, e.g. {@code very-high} */
    public String sarifValue() {
        return sarifValue;
    }
}
