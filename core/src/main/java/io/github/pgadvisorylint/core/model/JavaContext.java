package io.github.pgadvisorylint.core.model;

/**
 * The Java code around a lock site found in a Java file.
 *
 * @param typeName        simple name of the enclosing top-level or nested type, e.g. {@code InvoiceJob}
 * @param methodName      enclosing method or constructor name; {@code <init>} for constructors,
 *                        {@code <clinit>} for initialisers, {@code <field>} for field initialisers,
 *                        the method name for annotations on it
 * @param executionCall   source text of the executing call's name with its receiver, e.g.
 *                        {@code jdbcTemplate.queryForObject}; null for declarations
 * @param receiver        source text of the executing call's receiver, e.g. {@code conn}; null when none
 * @param sqlConstant     qualified name of the constant holding the SQL when it did not appear inline,
 *                        e.g. {@code InvoiceJob.LOCK_SQL}; null when inline
 */
public record JavaContext(
        String typeName, String methodName, String executionCall, String receiver, String sqlConstant) {}
