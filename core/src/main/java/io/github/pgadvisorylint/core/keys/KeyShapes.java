package io.github.pgadvisorylint.core.keys;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The symbolic shape of a key part whose value is not known statically: the function that computes it
 * and how many run-time inputs it combines. {@code lockId(db, schema)} is {@code lockId/2},
 * {@code (db + ":" + schema).hashCode()} is {@code hashCode/2}, {@code hashtext(?)} is {@code hashtext/1}.
 * Two parts computed by one function from a different number of inputs take different values whenever
 * the extra input matters: a release computed that way can never release the hold (F4: an unlock
 * releases exactly its key). Names are not compared, since a lock and its unlock often live in methods
 * whose variables are named differently.
 */
public final class KeyShapes {

    private static final int MAX_LENGTH = 400;

    /**
     * A function and its number of run-time inputs.
     *
     * @param function the function's simple name ({@code lockId}, {@code hashCode}, {@code hashtext})
     * @param inputs   its arguments, or for one argument, the non-literal operands of the concatenation
     *                 inside it ({@code a + ":" + b} is 2); literals and constants ({@code UPPER_CASE}) do not count
     */
    public record Shape(String function, int inputs) {
        @Override
        public String toString() {
            return function + " from " + inputs + (inputs == 1 ? " input" : " inputs");
        }
    }

    private KeyShapes() {}

    /**
     * @param a a key (the hold)
     * @param b another key (the release)
     * @return the index of the first part both compute with one function from a different number of
     *     inputs, with the two shapes; empty when no part differs that way or the key spaces differ
     */
    public static Optional<Difference> computedDifferently(LockKey a, LockKey b) {
        if (a.space() != b.space() || a.parts().size() != b.parts().size()) {
            return Optional.empty();
        }
        for (int i = 0; i < a.parts().size(); i++) {
            KeyPart pa = a.parts().get(i);
            KeyPart pb = b.parts().get(i);
            if (pa.isKnown() || pb.isKnown()) {
                continue;
            }
            Optional<Shape> sa = shape(pa.expression());
            Optional<Shape> sb = shape(pb.expression());
            if (sa.isPresent()
                    && sb.isPresent()
                    && sa.get().function().equals(sb.get().function())
                    && sa.get().inputs() != sb.get().inputs()) {
                return Optional.of(new Difference(i, sa.get(), sb.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * One key part computed two ways.
     *
     * @param part    the 0-based index of the part
     * @param hold    the hold's shape
     * @param release the release's shape
     */
    public record Difference(int part, Shape hold, Shape release) {}

    /**
     * @param expression a key part's Java or SQL text
     * @return its shape when it is a call or a {@code .hashCode()}, else empty
     */
    public static Optional<Shape> shape(String expression) {
        if (expression.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        String e = strip(expression.replace("this.", "").strip());
        String hashCode = ".hashCode()";
        if (e.endsWith(hashCode)) {
            String receiver = strip(e.substring(0, e.length() - hashCode.length()));
            return Optional.of(new Shape("hashCode", operands(receiver)));
        }
        int open = e.indexOf('(');
        if (open <= 0 || !e.endsWith(")") || closing(e, open) != e.length() - 1) {
            return Optional.empty();
        }
        String head = e.substring(0, open);
        if (!head.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
            return Optional.empty();
        }
        String name = head.substring(head.lastIndexOf('.') + 1);
        List<String> args = split(e.substring(open + 1, e.length() - 1), ",");
        if (args.size() == 1) {
            return Optional.of(new Shape(name, operands(args.get(0))));
        }
        int inputs = 0;
        for (String a : args) {
            inputs += isLiteral(a) ? 0 : 1;
        }
        return Optional.of(new Shape(name, inputs));
    }

    /** The non-literal operands of a top-level {@code +} or {@code ||} concatenation (1 for a plain value, 0 for a literal). */
    private static int operands(String text) {
        List<String> parts = new ArrayList<>();
        for (String p : split(strip(text), "||")) {
            parts.addAll(split(p, "+"));
        }
        int n = 0;
        for (String p : parts) {
            n += isLiteral(p) ? 0 : 1;
        }
        return n;
    }

    private static boolean isLiteral(String text) {
        String t = strip(text.strip());
        return t.isEmpty()
                || t.startsWith("\"")
                || t.startsWith("'")
                || t.matches("-?[0-9][0-9_]*[lL]?")
                || t.matches("([A-Za-z_][A-Za-z0-9_]*\\.)*[A-Z][A-Z0-9_]*");
    }

    /** Splits at top-level occurrences of a separator, outside parentheses and quotes. */
    private static List<String> split(String text, String separator) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote == '"') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (depth == 0 && text.startsWith(separator, i)) {
                out.add(text.substring(start, i).strip());
                start = i + separator.length();
                i = start - 1;
            }
        }
        out.add(text.substring(start).strip());
        return out;
    }

    /** Removes parentheses around the whole text. */
    private static String strip(String text) {
        String t = text.strip();
        while (t.startsWith("(") && closing(t, 0) == t.length() - 1) {
            t = t.substring(1, t.length() - 1).strip();
        }
        return t;
    }

    /** The index of the parenthesis closing the one at {@code open}, or -1. */
    private static int closing(String text, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
