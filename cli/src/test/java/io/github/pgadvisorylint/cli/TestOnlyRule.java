package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;

/**
 * A rule registered only on the cli test classpath (META-INF/services), so the real pipeline has a
 * rule to load, describe and run. Reports nothing.
 */
public final class TestOnlyRule extends AbstractRule {

    /** The public no-argument constructor {@link java.util.ServiceLoader} needs. */
    public TestOnlyRule() {
        super(
                "test-only-rule",
                Severity.WARNING,
                "A rule that exists only in the cli tests.",
                "Registered through the test classpath to exercise rule loading; it never reports.",
                List.of("test"));
    }

    @Override
    public void check(RuleContext context) {
        // Nothing: the model is not needed to test the command line.
    }
}
