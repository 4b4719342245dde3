package io.github.pgadvisorylint.core.sql;

/** The kind of one top-level SQL statement, from its leading key words. */
public enum StatementKind {
    /** {@code SELECT}, {@code VALUES}, {@code TABLE}, {@code WITH .. SELECT}, PL/pgSQL {@code PERFORM}. */
    SELECT,
    /** {@code INSERT}, also after {@code WITH}. */
    INSERT,
    /** {@code UPDATE}, also after {@code WITH}. */
    UPDATE,
    /** {@code DELETE}, also after {@code WITH}. */
    DELETE,
    /** {@code BEGIN}, {@code START TRANSACTION}. */
    BEGIN,
    /** {@code COMMIT}, {@code END}. */
    COMMIT,
    /** {@code ROLLBACK}, {@code ABORT} (also {@code ROLLBACK TO SAVEPOINT}). */
    ROLLBACK,
    /** {@code SET} (including {@code SET LOCAL}, {@code SET lock_timeout = ..}). */
    SET,
    /** {@code DO $$ .. $$}: an anonymous PL/pgSQL block. */
    DO_BLOCK,
    /** {@code CREATE [OR REPLACE] FUNCTION|PROCEDURE}. */
    CREATE_FUNCTION,
    /** SQL {@code CALL}, or a JDBC escape {@code { call f(?) }} / {@code { ? = call f(?) }}. */
    CALL,
    /** Anything else ({@code LOCK TABLE}, {@code VACUUM}, DDL, garbage). */
    OTHER
}
