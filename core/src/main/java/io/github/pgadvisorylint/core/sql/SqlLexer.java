package io.github.pgadvisorylint.core.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * A PostgreSQL-aware lexer (PostgreSQL docs, "Lexical Structure", section 4.1). Single pass, linear
 * time, no regular expressions; never throws: unterminated strings, quoted identifiers, dollar quotes
 * and comments simply end at the end of the range.
 *
 * <p>Handles unquoted and quoted identifiers, numbers, {@code '..'} strings with {@code ''} escapes,
 * {@code E'..'} strings with backslash escapes, dollar quotes {@code $tag$..$tag$}, {@code --} and
 * nested {@code /* *}{@code /} comments (skipped), {@code ::}, and parameters {@code ?}, {@code $1},
 * {@code :name} (not {@code ::}), {@code #{..}}, {@code ${..}}.
 */
final class SqlLexer {

    /** Longest dollar-quote tag accepted, so that the search for the closing tag stays linear. */
    private static final int MAX_TAG = 64;

    private SqlLexer() {}

    /**
     * @param text the whole analysed text
     * @param from first offset to lex, inclusive
     * @param to   offset to stop at, exclusive
     * @return the tokens of {@code text[from, to)} with offsets into {@code text}
     */
    static List<SqlToken> lex(String text, int from, int to) {
        List<SqlToken> out = new ArrayList<>();
        int i = Math.max(0, from);
        int n = Math.min(text.length(), to);
        while (i < n) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B) {
                i++;
                continue;
            }
            int start = i;
            SqlToken.Type type;
            if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                    i++;
                }
                continue;
            }
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                i = skipBlockComment(text, i, n);
                continue;
            }
            if (c == '\'') {
                i = endOfString(text, i, n, false);
                type = SqlToken.Type.STRING;
            } else if (c == '"') {
                i = endOfQuoted(text, i, n, '"');
                type = SqlToken.Type.QUOTED_IDENT;
            } else if (isIdentStart(c)) {
                int j = i + 1;
                while (j < n && isIdentPart(text.charAt(j))) {
                    j++;
                }
                int len = j - i;
                if (j < n && text.charAt(j) == '\'' && len == 1 && "eEbBxXnN".indexOf(c) >= 0) {
                    i = endOfString(text, j, n, c == 'e' || c == 'E');
                    type = SqlToken.Type.STRING;
                } else if (len == 1
                        && (c == 'u' || c == 'U')
                        && j + 1 < n
                        && text.charAt(j) == '&'
                        && (text.charAt(j + 1) == '\'' || text.charAt(j + 1) == '"')) {
                    if (text.charAt(j + 1) == '\'') {
                        i = endOfString(text, j + 1, n, false);
                        type = SqlToken.Type.STRING;
                    } else {
                        i = endOfQuoted(text, j + 1, n, '"');
                        type = SqlToken.Type.QUOTED_IDENT;
                    }
                } else {
                    i = j;
                    type = SqlToken.Type.IDENT;
                }
            } else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && isDigit(text.charAt(i + 1)))) {
                int j = i + 1;
                while (j < n) {
                    char d = text.charAt(j);
                    if ((isIdentPart(d) && d != '$') || (d == '.' && !(j + 1 < n && text.charAt(j + 1) == '.'))) {
                        j++;
                    } else if ((d == '+' || d == '-')
                            && (text.charAt(j - 1) == 'e' || text.charAt(j - 1) == 'E')
                            && j + 1 < n
                            && isDigit(text.charAt(j + 1))
                            && isDecimalSoFar(text, i, j - 1)) {
                        j++;
                    } else {
                        break;
                    }
                }
                i = j;
                type = SqlToken.Type.NUMBER;
            } else if (c == '$') {
                if (i + 1 < n && isDigit(text.charAt(i + 1))) {
                    int j = i + 1;
                    while (j < n && isDigit(text.charAt(j))) {
                        j++;
                    }
                    i = j;
                    type = SqlToken.Type.PARAM;
                } else if (i + 1 < n && text.charAt(i + 1) == '{') {
                    i = endOfBrace(text, i + 2, n);
                    type = SqlToken.Type.PARAM;
                } else {
                    int tagEnd = dollarTagEnd(text, i, n);
                    if (tagEnd > 0) {
                        String tag = text.substring(i, tagEnd);
                        int close = text.indexOf(tag, tagEnd);
                        i = close < 0 || close + tag.length() > n ? n : close + tag.length();
                        type = SqlToken.Type.DOLLAR_STRING;
                    } else {
                        i++;
                        type = SqlToken.Type.OPERATOR;
                    }
                }
            } else if (c == '#' && i + 1 < n && text.charAt(i + 1) == '{') {
                i = endOfBrace(text, i + 2, n);
                type = SqlToken.Type.PARAM;
            } else if (c == '?') {
                i++;
                while (i < n && isDigit(text.charAt(i))) {
                    i++; // JPA positional parameter ?1
                }
                type = SqlToken.Type.PARAM;
            } else if (c == ':') {
                if (i + 1 < n && (text.charAt(i + 1) == ':' || text.charAt(i + 1) == '=')) {
                    i += 2;
                    type = SqlToken.Type.OPERATOR;
                } else if (i + 1 < n && isIdentStart(text.charAt(i + 1))) {
                    int j = i + 2;
                    while (j < n && isIdentPart(text.charAt(j))) {
                        j++;
                    }
                    i = j;
                    type = SqlToken.Type.PARAM;
                } else {
                    i++;
                    type = SqlToken.Type.OPERATOR;
                }
            } else if ("()[]{},;.".indexOf(c) >= 0) {
                i++;
                type = SqlToken.Type.PUNCT;
            } else if ("+-*/<>=~!@#%^&|`".indexOf(c) >= 0) {
                i++;
                type = SqlToken.Type.OPERATOR;
            } else {
                i++;
                type = SqlToken.Type.OTHER;
            }
            out.add(new SqlToken(type, start, i, text.substring(start, i)));
        }
        return out;
    }

    private static boolean isDecimalSoFar(String text, int from, int to) {
        for (int k = from; k < to; k++) {
            char d = text.charAt(k);
            if (!isDigit(d) && d != '.') {
                return false;
            }
        }
        return true;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || c == '_'
                || (c >= 0x80 && !Character.isWhitespace(c));
    }

    static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c) || c == '$';
    }

    /** @return the offset just past the closing quote, or {@code n} when unterminated */
    private static int endOfString(String text, int quote, int n, boolean backslashEscapes) {
        int i = quote + 1;
        while (i < n) {
            char c = text.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == '\'') {
                if (i + 1 < n && text.charAt(i + 1) == '\'') {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    private static int endOfQuoted(String text, int quote, int n, char q) {
        int i = quote + 1;
        while (i < n) {
            if (text.charAt(i) == q) {
                if (i + 1 < n && text.charAt(i + 1) == q) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    private static int endOfBrace(String text, int from, int n) {
        int i = from;
        while (i < n && text.charAt(i) != '}' && text.charAt(i) != '\n') {
            i++;
        }
        return i < n && text.charAt(i) == '}' ? i + 1 : i;
    }

    private static int skipBlockComment(String text, int i, int n) {
        int depth = 0;
        while (i < n) {
            if (text.charAt(i) == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                depth++;
                i += 2;
            } else if (text.charAt(i) == '*' && i + 1 < n && text.charAt(i + 1) == '/') {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    /** @return the offset past the opening {@code $tag$}, or -1 when {@code text[i]} does not open a dollar quote */
    private static int dollarTagEnd(String text, int i, int n) {
        int j = i + 1;
        if (j < n && text.charAt(j) == '$') {
            return j + 1;
        }
        if (j >= n || !isIdentStart(text.charAt(j))) {
            return -1;
        }
        while (j < n && j - i <= MAX_TAG && isIdentPart(text.charAt(j)) && text.charAt(j) != '$') {
            j++;
        }
        return j < n && text.charAt(j) == '$' ? j + 1 : -1;
    }
}
