package io.github.pgadvisorylint.core.sql;
import java.util.List;
public final class SqlAnalyzer {
  public SqlAnalysis analyze(String sql) { return new SqlAnalysis(List.of(), List.of(), List.of()); }
}
