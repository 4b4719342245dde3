package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.expr.Expression;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A compile-time string built from Java literals, with the file offset each char came from, so a
 * position in the string maps back to the exact line and column of the source (through escapes,
 * text-block indentation, CRLF and tabs).
 */
final class JavaText {

    /** Offset value of chars that did not come from a literal of this file (placeholders). */
    static final int SYNTHETIC = -1;

    private final StringBuilder text = new StringBuilder();
    private int[] offsets = new int[32];
    private boolean viaConstant;
    private String constantName;
    private final Map<Integer, Expression> holes = new HashMap<>();

    String text() {
        return text.toString();
    }

    int length() {
        return text.length();
    }

    /**
     * @param index a char index in the text
     * @return the file offset of that char, or {@link #SYNTHETIC}
     */
    int offsetAt(int index) {
        return index >= 0 && index < text.length() ? offsets[index] : SYNTHETIC;
    }

    void append(char c, int offset) {
        if (text.length() == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[text.length()] = offset;
        text.append(c);
    }

    void append(JavaText other) {
        int base = text.length();
        for (int i = 0; i < other.length(); i++) {
            append(other.text.charAt(i), other.offsets[i]);
        }
        other.holes.forEach((k, v) -> holes.put(base + k, v));
        if (other.viaConstant && constantName == null) {
            constantName = other.constantName;
        }
        viaConstant |= other.viaConstant;
    }

    /**
     * Appends a range of another text, keeping its offsets and holes (not its constant name).
     *
     * @param other the text
     * @param from  first char index, inclusive
     * @param to    last char index, exclusive
     */
    void append(JavaText other, int from, int to) {
        for (int i = from; i < to && i < other.length(); i++) {
            Expression hole = other.holes.get(i);
            if (hole != null) {
                holes.put(text.length(), hole);
            }
            append(other.text.charAt(i), other.offsets[i]);
        }
    }

    /** Copies the constant name of another text (after a rewrite built from its pieces). */
    JavaText constantOf(JavaText other) {
        if (other.viaConstant) {
            viaConstant(other.constantName);
        }
        return this;
    }

    /**
     * Appends a synthetic string: chars that come from no literal of the file.
     *
     * @param s      the chars
     * @param offset the file offset to give them, or {@link #SYNTHETIC}
     */
    void appendSynthetic(String s, int offset) {
        for (int i = 0; i < s.length(); i++) {
            append(s.charAt(i), offset);
        }
    }

    /**
     * Appends the placeholder {@code ?} for a value computed at run time and remembers its expression.
     *
     * @param operand the Java expression whose value is concatenated into the SQL
     */
    void appendHole(Expression operand) {
        holes.put(text.length(), operand);
        append('?', SYNTHETIC);
    }

    /**
     * @param index a char index in the text
     * @return the Java expression concatenated at that index, or null
     */
    Expression holeAt(int index) {
        return holes.get(index);
    }

    /** @return whether a value computed at run time is part of the text ({@link #appendHole}) */
    boolean hasHoles() {
        return !holes.isEmpty();
    }

    /** Marks the text as coming (at least partly) through a named constant. */
    JavaText viaConstant(String name) {
        if (constantName == null) {
            constantName = name;
        }
        viaConstant = true;
        return this;
    }

    private SortedMap<String, Boolean> assumptions = new TreeMap<>();

    /**
     * Records the values of the enclosing method's flag parameters this text (one alternative of
     * {@link StringEvaluator#evaluateAll}) was built under.
     *
     * @param values parameter name to the value assumed on this text's path
     */
    void assume(Map<String, Boolean> values) {
        assumptions = new TreeMap<>(values);
    }

    /** @return the flag parameters of the enclosing method and the values this text assumes; empty when none */
    SortedMap<String, Boolean> assumptions() {
        return Collections.unmodifiableSortedMap(assumptions);
    }

    /** @return the first named constant the text came through, or null when inline */
    String constantName() {
        return viaConstant ? constantName : null;
    }
}
