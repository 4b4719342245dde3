/**
 * What a front end learns from one file, with no syntax tree left in it:
 * {@link io.github.pgadvisorylint.core.facts.FileFacts} (sites, lifecycles, usages, lock-order edges,
 * method graphs, notifications), the file's {@link io.github.pgadvisorylint.core.facts.Suppression}
 * comments and the {@link io.github.pgadvisorylint.core.facts.HelperSummary} of each lock helper it
 * declares. The Java, SQL and MyBatis front ends produce these facts, the cache stores them and
 * {@code core.analysis} links them into one {@code LockModel}; this package depends on none of those
 * stages, only on the model, the flow graphs, the rule SPI's findings and the diagnostics.
 */
package io.github.pgadvisorylint.core.facts;
