package io.github.pgadvisorylint.core.java;

/**
 * A cheap lexical check for type arguments nested absurdly deep ({@code List<List<List<...>>>}
 * thousands of levels): JavaParser's syntactic lookahead re-reads the nested type arguments at every
 * level when it decides whether a statement declares a local variable, so parsing takes time
 * quadratic in the depth (4,000 levels took 5 s, 5,000 the whole 10 s budget). Real code nests a few
 * levels; a file past {@link #LIMIT} is skipped before parsing.
 *
 * <p>Comments, string, text-block and character literals are skipped. A {@code <} directly after a
 * name, a {@code ?}, a {@code ,} or another {@code <} opens a level, a {@code >} closes one; anything
 * that cannot occur inside type arguments ({@code ;}, braces, parentheses, {@code =}, arithmetic and
 * logical operators, {@code <<}, {@code <=}) ends the count, so comparisons in expressions do not add
 * up. Linear in the text, never recursive.
 */
final class GenericNesting {

    /** Deeper type arguments than this make a file too deep to parse. */
    static final int LIMIT = 100;

    private GenericNesting() {}

    /**
     * @param text a Java file's text (unicode escapes decoded)
     * @return the offset of the {@code <} that opens level {@link #LIMIT} + 1, or -1 when the file
     *     nests less deeply
     */
    static int pastLimit(String text) {
        int depth = 0;
        char previous = ' '; // the last significant char outside comments and literals
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '/' && i + 1 < n && (text.charAt(i + 1) == '/' || text.charAt(i + 1) == '*')) {
                i = JavaOutline.skipComment(text, i);
                continue;
            }
            if (c == '"' || c == '\'') {
                i = JavaOutline.skipLiteral(text, i); // strings, characters and text blocks
                depth = 0;
                previous = c;
                continue;
            }
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '<') {
                char next = i + 1 < n ? text.charAt(i + 1) : ' ';
                if (next == '<' || next == '=') { // the operators <<, <<= and <=
                    depth = 0;
                    previous = next;
                    i += 2;
                    continue;
                }
                if (Character.isJavaIdentifierPart(previous)
                        || previous == '?'
                        || previous == ','
                        || previous == '<'
                        || previous == '.') {
                    if (++depth > LIMIT) {
                        return i;
                    }
                } else {
                    depth = 0;
                }
            } else if (c == '&' && i + 1 < n && text.charAt(i + 1) == '&') { // && is no type bound
                depth = 0;
                previous = '&';
                i += 2;
                continue;
            } else if (c == '>') {
                depth = Math.max(0, depth - 1);
            } else if (!Character.isJavaIdentifierPart(c) && ",?.&[]@".indexOf(c) < 0) {
                depth = 0; // ; { } ( ) = + - * / % ! | ^ : and the like never occur inside type arguments
            }
            previous = c;
            i++;
        }
        return -1;
    }
}
