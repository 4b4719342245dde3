package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Names;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.SuppressionUse;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code unused-suppression}: an in-source suppression that names no known rule (a
 * {@code warning}: it was meant to silence something and silences nothing), or that silences nothing
 * in this analysis (a {@code note}: the code it excused was fixed or moved). Runs after every other
 * rule ({@link Phase#AFTER_FINDINGS}) and reads {@link RuleContext#suppressionUses()}; a rule switched
 * off by configuration never makes a suppression of it unused.
 */
public final class UnusedSuppressionRule extends AbstractRule {

    /** This rule's id. */
    public static final String ID = "unused-suppression";

    /** Creates the rule with its metadata and documentation page. */
    public UnusedSuppressionRule() {
        // precision: compares the suppressions with this run's findings, no judgement
        super(
                ID,
                Severity.NOTE,
                Precision.VERY_HIGH,
                "A pg-advisory-lint suppression that names an unknown rule or silences nothing.",
                "An ignore comment or @SuppressWarnings value that names no rule of pg-advisory-lint (a typo, or a "
                        + "rule that was renamed) silences nothing, so the finding it was written for still fires or "
                        + "will fire unnoticed later (warning). One that silences no finding in this analysis is "
                        + "left over from code that was fixed or moved, and would hide a future finding on its "
                        + "lines without anyone deciding so (note).",
                List.of("maintainability", "suppression"));
    }

    @Override
    public Phase phase() {
        return Phase.AFTER_FINDINGS;
    }

    @Override
    public void check(RuleContext context) {
        for (SuppressionUse use : context.suppressionUses()) {
            String written = written(use);
            String ids = String.join(",", use.ruleIds());
            for (String unknown : use.unknownIds()) {
                String hint = suggestion(unknown, context.knownRuleIds());
                context.report(
                        Severity.WARNING,
                        use.location(),
                        "unknown:" + unknown,
                        written + " names '" + unknown + "', which is not a pg-advisory-lint rule"
                                + (hint == null ? "" : " (did you mean " + hint + "?)")
                                + ": it silences nothing. 'pg-advisory-lint list-rules' lists the rule ids.",
                        List.of());
            }
            Set<String> unused = new TreeSet<>(use.unusedIds());
            unused.remove(ID);
            if (!unused.isEmpty()) {
                context.report(
                        Severity.NOTE,
                        use.location(),
                        "unused:" + use.form() + ":" + ids,
                        written + " silences no " + String.join(" or ", unused) + " finding here"
                                + (use.form() == SuppressionUse.Form.COMMENT
                                        ? " (a comment covers its own line and the next one)"
                                        : "")
                                + ": the code it excused was fixed or moved. Remove it so it cannot hide a"
                                + " future finding.",
                        List.of());
            } else if (use.coversEveryRule() && use.silenced() == 0) {
                context.report(
                        Severity.NOTE,
                        use.location(),
                        "unused:" + use.form() + ":*",
                        written + " silences no finding here"
                                + (use.form() == SuppressionUse.Form.COMMENT
                                        ? " (a comment covers its own line and the next one)"
                                        : "")
                                + ": the code it excused was fixed or moved. Remove it so it cannot hide a"
                                + " future finding.",
                        List.of());
            }
        }
    }

    private static String written(SuppressionUse use) {
        String ids = String.join(", ", use.ruleIds());
        return use.form() == SuppressionUse.Form.COMMENT
                ? "The comment 'pg-advisory-lint:ignore" + (ids.isEmpty() ? "" : " " + ids) + "'"
                : "@SuppressWarnings(\"pg-advisory-lint" + (ids.isEmpty() ? "" : ":" + ids) + "\")";
    }

    private static String suggestion(String unknown, Set<String> known) {
        return Names.closest(unknown, known);
    }
}
