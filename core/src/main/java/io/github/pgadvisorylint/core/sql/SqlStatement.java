package io.github.pgadvisorylint.core.sql;

/**
 * One top-level statement of an analysed SQL text, split on top-level {@code ;} (outside strings,
 * dollar quotes and comments).
 *
 * @param start offset of the statement's first token in the analysed text (UTF-16 index), inclusive
 * @param end   offset just past its last token, exclusive; the {@code ;} and surrounding comments are not included
 * @param kind  what kind of statement it is, from its leading key words
 */
public record SqlStatement(int start, int end, StatementKind kind) {}
