package io.github.pgadvisorylint.core.sql;
public record SqlStatement(int start, int end, StatementKind kind) {}
