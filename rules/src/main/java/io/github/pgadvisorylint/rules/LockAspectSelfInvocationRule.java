package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;

/**
 * {@code lock-aspect-self-invocation}: a call on {@code this} of a method that an {@code @Around} advice selects by
 * an annotation ({@code @DistributedLock}) to take an advisory lock around it, reported at the call. Spring AOP
 * applies advice in a proxy around the bean, so a call from inside the object does not run it (Spring Framework
 * reference, "Understanding AOP Proxies"): the method runs without the lock. The fact comes from the lock-state
 * analysis ({@link PathFinding.Kind#ADVICE_BYPASSED}); a self-call from a method that carries the same annotation
 * (already under the lock) stays silent.
 */
public final class LockAspectSelfInvocationRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public LockAspectSelfInvocationRule() {
        // precision: the advice and its pointcut are read from the code; AspectJ weaving (which advises self-calls)
        // is not detected
        super(
                "lock-aspect-self-invocation",
                Severity.WARNING,
                Precision.MEDIUM,
                "A method whose advisory lock an @Around aspect takes is called on this, bypassing the aspect.",
                "Spring applies @Around advice through a proxy around the bean. When the method the annotation marks is "
                        + "called from inside the same object (this.run() or run()), the call does not go through the "
                        + "proxy, the advice does not run, and the method runs without the advisory lock the advice "
                        + "takes: every instance runs it at once.",
                List.of("correctness", "concurrency", "spring", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (PathFinding f : context.model().pathFindings()) {
            if (f.kind() == PathFinding.Kind.ADVICE_BYPASSED) {
                reportPath(
                        context,
                        Severity.WARNING,
                        f,
                        capitalized(f.note())
                                + ": the method runs without the advisory lock. Call it through the bean (a"
                                + " separate bean, or the injected proxy), or take the lock inside the method.");
            }
        }
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
