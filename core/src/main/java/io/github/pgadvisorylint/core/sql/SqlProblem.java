package io.github.pgadvisorylint.core.sql;
public record SqlProblem(int offset, String message) {}
