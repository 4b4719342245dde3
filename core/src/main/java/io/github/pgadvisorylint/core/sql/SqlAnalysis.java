package io.github.pgadvisorylint.core.sql;
import java.util.List;
public record SqlAnalysis(List<SqlStatement> statements, List<SqlLockCall> calls, List<SqlProblem> problems) {}
