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

    /** When a rule runs relative to the others. */
    enum Phase {
        /** Reads the lock model; runs first, in id order. The default. */
        MODEL,
        /**
         * Runs once every {@link #MODEL} rule has reported, and reads
         * {@link RuleContext#suppressionUses()}: what each in-source suppression silenced. Its
         * findings are silenced only by suppressions that name its id explicitly.
         */
        AFTER_FINDINGS
    }

    /** @return when this rule runs; {@link Phase#MODEL} unless it reads suppression facts */
    default Phase phase() {
        return Phase.MODEL;
    }
}
