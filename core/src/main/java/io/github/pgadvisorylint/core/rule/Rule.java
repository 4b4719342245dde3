package io.github.pgadvisorylint.core.rule;

/**
 * A check over the {@link io.github.pgadvisorylint.core.model.LockModel}. Implementations are found
 * with {@link java.util.ServiceLoader} (register them in
 * {@code META-INF/services/io.github.pgadvisorylint.core.rule.Rule}), must have a public no-argument
 * constructor, hold no mutable state, and never parse source text themselves: what a rule needs, core
 * provides in the model.
 */
public interface Rule {

    /** @return the rule's metadata; the same instance on every call */
    RuleDescriptor descriptor();

    /**
     * Reads the model and reports findings through the context. Must not throw for any model; an
     * exception is reported as a tool notification and the other rules still run.
     *
     * @param context the model and the sink for findings
     */
    void check(RuleContext context);
}
