package io.github.pgadvisorylint.core.sql;
import io.github.pgadvisorylint.core.model.KeyPart;
public record SqlArgument(String text, int start, int end, KeyPart.Kind kind, Long value) {}
