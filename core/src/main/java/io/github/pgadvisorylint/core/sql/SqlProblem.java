package io.github.pgadvisorylint.core.sql;

/**
 * Something the SQL front end could not do exactly, reported instead of throwing.
 *
 * @param offset  offset in the analysed text the problem refers to (a statement's start), 0 for the whole text
 * @param message a human-readable sentence, e.g. {@code JSqlParser could not parse this statement
 *                (Encountered unexpected token ...); analysed lexically}
 */
public record SqlProblem(int offset, String message) {}
