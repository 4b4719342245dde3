package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.KeyPart;

/**
 * One argument of an advisory-lock call as written in SQL.
 *
 * @param text  the argument's text, from its first to its last token (comments inside kept)
 * @param start offset of the argument's first token in the analysed text, inclusive
 * @param end   offset just past its last token, exclusive
 * @param kind  {@code KNOWN} for an integer literal that fits a {@code bigint} (possibly negative,
 *              parenthesised, cast as {@code 42::bigint}, {@code '42'::bigint} or
 *              {@code CAST(42 AS int)}); {@code PARAMETER} for {@code ?}, {@code :name},
 *              {@code $1}, {@code #{x}}, {@code ${x}}; {@code COLUMN} for a plain or qualified
 *              column reference ({@code id}, {@code t.id}; in PL/pgSQL also a variable);
 *              {@code UNKNOWN} otherwise (expressions, {@code hashtext(..)}, {@code 0x2A})
 * @param value the value when {@code kind == KNOWN}, else null
 */
public record SqlArgument(String text, int start, int end, KeyPart.Kind kind, Long value) {}
