package io.github.pgadvisorylint.core.model;

/**
 * The order in which a loop around an acquisition visits its elements: one lock per element, so the
 * element order is the lock order (RULES.md unordered-multi-key-lock).
 *
 * @param source   source text of what is iterated, e.g. {@code accountIds} or {@code rs.next()}
 * @param sorted   true when the elements are visibly in a fixed order: a {@code SortedSet}/{@code TreeSet},
 *                 {@code sorted()}, {@code Collections.sort}/{@code List.sort} before the loop, or rows
 *                 of a query with {@code ORDER BY}
 * @param evidence why it is (not) sorted, one phrase
 */
public record LoopOrder(String source, boolean sorted, String evidence) {}
