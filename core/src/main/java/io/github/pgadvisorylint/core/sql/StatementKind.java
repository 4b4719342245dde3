package io.github.pgadvisorylint.core.sql;
public enum StatementKind { SELECT, INSERT, UPDATE, DELETE, BEGIN, COMMIT, ROLLBACK, SET, DO_BLOCK, CREATE_FUNCTION, CALL, OTHER }
