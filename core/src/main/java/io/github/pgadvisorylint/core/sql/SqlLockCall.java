package io.github.pgadvisorylint.core.sql;
import io.github.pgadvisorylint.core.model.*;
import java.util.List;
public record SqlLockCall(AdvisoryFunction function, int nameStart, int nameEnd, List<SqlArgument> arguments, SqlContext context, int statementIndex) {}
