package io.github.pgadvisorylint.core.java;

import io.github.pgadvisorylint.core.api.ApiCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The outline of a Java source: the same text with the bodies of methods, constructors and
 * initializers of classes, interfaces and records emptied, so that JavaParser parses only the
 * declarations another file can refer to (types, supertypes, fields with their initializers, enums,
 * method signatures) at a fraction of the cost of the whole file.
 *
 * <p>The outline is also compressed: comments go, and every run of white space becomes one space
 * (JavaParser makes a token of every space), so the outline is a fraction of the file. Each of its
 * characters remembers its offset in the file ({@link Outline#fileOffset}), so the ranges of a
 * parsed outline are mapped back to the file's lines and columns. Kept whole: enum declarations (their constants, constructors and
 * getters give key values), short bodies (at most {@value #KEPT_BODY_CHARS} characters: getters and
 * setters), bodies that mention a hash or checksum (what {@link KeyEvaluator} reads in another
 * type's methods when it looks for a hash of a run-time value), and bodies that call {@code getConnection}
 * and a statement factory (query helpers whose own connection {@link SqlWrappers} reads).
 *
 * <p>A member whose body is emptied goes whole, signature and annotations too: no other file reads
 * it (a hash getter's body is kept, see above), and the outline of a file stays a small fraction of
 * its tree.
 *
 * <p>The scan knows Java's comments, string and character literals and text blocks; it is a
 * lexer-level scan, not a parser: text it cannot place (a brace it cannot classify) is kept as it is,
 * so the outline is never less than valid Java when the input is valid Java. JLS 3.7, 3.10.5, 3.10.6.
 */
public final class JavaOutline {

    /** Bodies up to this length (characters between the braces) are kept: getters, setters. */
    static final int KEPT_BODY_CHARS = 200;

    /** Words (lower case) whose mention keeps a body: what a hash of a run-time value, or lock SQL, is made of. */
    private static final List<String> KEEP_WORDS = List.of("hash", "crc", "adler", "checksum", "advisory");

    /** JDBC's statement factories (java.sql.Connection): with {@code getConnection}, they keep a body. */
    private static final Set<String> STATEMENT_FACTORIES = ApiCatalog.standard().statementFactories();

    private JavaOutline() {}

    /**
     * @param text a Java source, or part of one
     * @return whether it calls {@code getConnection} and a JDBC statement factory ({@code prepareStatement},
     *     {@code createStatement}, {@code prepareCall}): it may hold a query helper that runs the SQL it is given on a
     *     connection of its own. A text-level test, comments and literals included.
     */
    public static boolean runsStatementsOnOwnConnection(String text) {
        return runsStatementsOnOwnConnection(text, 0, text.length());
    }

    private static boolean runsStatementsOnOwnConnection(String text, int from, int to) {
        int get = text.indexOf("getConnection", from);
        if (get < 0 || get >= to) {
            return false;
        }
        for (String statement : STATEMENT_FACTORIES) {
            int at = text.indexOf(statement, from);
            if (at >= 0 && at < to) {
                return true;
            }
        }
        return false;
    }

    /**
     * An outline and where its characters come from.
     *
     * @param text        the outline: valid Java when the file is
     * @param fileOffsets for each character of {@code text}, its offset in the file
     */
    @SuppressWarnings("ArrayRecordComponent") // never compared or hashed; an int per char of the outline
    public record Outline(String text, int[] fileOffsets) {

        /**
         * @param outlineOffset an offset in {@link #text}, 0 to its length (the length maps past the
         *                      file's last character)
         * @return the offset in the file of the same character
         */
        public int fileOffset(int outlineOffset) {
            return outlineOffset < fileOffsets.length
                    ? fileOffsets[outlineOffset]
                    : fileOffsets.length == 0 ? 0 : fileOffsets[fileOffsets.length - 1] + 1;
        }
    }

    /**
     * @param text a Java source
     * @return its outline (see the class comment)
     */
    public static Outline of(String text) {
        return new Scan(text).run();
    }

    /**
     * The simple names of the types a Java source may take constants from, read from its tokens
     * (without parsing it): the first capitalised segment of each import, every capitalised name
     * followed by {@code .name} ({@code LockKeys.INVOICE}, {@code Outer.Inner.X}) or a static call
     * ({@code StockKeys.forBin(2)}, whose key {@code KeyEvaluator} computes from its body), and the
     * capitalised names after {@code extends} and {@code implements}.
     * A superset of what {@link JavaFrontEnd#referencedTypeNames} finds in the syntax tree (a qualified
     * type such as {@code Map.Entry} counts too), so every file the tree would name is named.
     *
     * @param text a Java source
     * @return the names, sorted
     */
    public static SortedSet<String> referencedTypeNames(String text) {
        return referencedTypeNames(text, false);
    }

    /**
     * As {@link #referencedTypeNames(String)}, and with {@code declarations} also every capitalised name written as
     * the type of a declaration ({@code ClaimSession session}: a field, parameter or local of a type of the same
     * package needs no import): what a lock-using file's calls are made on.
     *
     * @param text         a Java source
     * @param declarations whether to add the types of declarations
     * @return the names, sorted
     */
    public static SortedSet<String> referencedTypeNames(String text, boolean declarations) {
        SortedSet<String> out = new TreeSet<>();
        int n = text.length();
        int i = 0;
        boolean inImport = false;
        boolean importNamed = false;
        boolean inSupertypes = false;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '/' && i + 1 < n && (text.charAt(i + 1) == '/' || text.charAt(i + 1) == '*')) {
                i = skipComment(text, i);
                continue;
            }
            if (c == '"' || c == '\'') {
                i = skipLiteral(text, i);
                continue;
            }
            if (Character.isJavaIdentifierStart(c)) {
                int end = i + 1;
                while (end < n && Character.isJavaIdentifierPart(text.charAt(end))) {
                    end++;
                }
                String word = text.substring(i, end);
                boolean upper = Character.isUpperCase(c);
                if (word.equals("import")) {
                    inImport = true;
                    importNamed = false;
                } else if (word.equals("extends") || word.equals("implements")) {
                    inSupertypes = true;
                } else if (inImport) {
                    if (upper && !importNamed) {
                        out.add(word);
                        importNamed = true;
                    }
                } else if (upper) {
                    if (inSupertypes) {
                        out.add(word);
                    }
                    // Name.member and Name.method(: a static method of another file may return a key or SQL
                    int k = skipSpace(text, end);
                    if (k < n && text.charAt(k) == '.') {
                        int m = skipSpace(text, k + 1);
                        if (m < n && Character.isJavaIdentifierStart(text.charAt(m))) {
                            out.add(word);
                        }
                    } else if (declarations
                            && k > end
                            && k < n
                            && Character.isJavaIdentifierStart(text.charAt(k))
                            && Character.isLowerCase(text.charAt(k))) {
                        out.add(word); // Type name: a declaration
                    }
                }
                i = end;
                continue;
            }
            if (c == ';') {
                inImport = false;
            } else if (c == '{') {
                inSupertypes = false;
            }
            i++;
        }
        return out;
    }

    /**
     * @param text a Java source
     * @param i    an offset in it
     * @return the first offset at or after {@code i} that is not white space or inside a comment
     */
    public static int skipSpace(String text, int i) {
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < n && (text.charAt(i + 1) == '/' || text.charAt(i + 1) == '*')) {
                i = skipComment(text, i);
            } else {
                break;
            }
        }
        return i;
    }

    /** @return the offset after the comment starting at {@code i} */
    static int skipComment(String s, int i) {
        if (s.charAt(i + 1) == '/') {
            int end = i + 2;
            while (end < s.length() && s.charAt(end) != '\n' && s.charAt(end) != '\r') {
                end++;
            }
            return end;
        }
        int end = s.indexOf("*/", i + 2);
        return end < 0 ? s.length() : end + 2;
    }

    /** @return the offset after the string, character literal or text block starting at {@code i} */
    static int skipLiteral(String s, int i) {
        char q = s.charAt(i);
        if (q == '"' && s.startsWith("\"\"\"", i)) {
            int k = i + 3;
            while (k < s.length()) {
                char c = s.charAt(k);
                if (c == '\\') {
                    k += 2;
                } else if (s.startsWith("\"\"\"", k)) {
                    return k + 3;
                } else {
                    k++;
                }
            }
            return s.length();
        }
        int k = i + 1;
        while (k < s.length()) {
            char c = s.charAt(k);
            if (c == '\\') {
                k += 2;
            } else if (c == q) {
                return k + 1;
            } else if (c == '\n' || c == '\r') {
                return k; // unterminated: the parser will say so
            } else {
                k++;
            }
        }
        return s.length();
    }

    /** What a brace opens. */
    private enum Frame {
        TYPE
    }

    /** A significant token: its first character's offset and its text (words and single punctuation). */
    private record Token(int at, String text) {}

    private static final class Scan {
        private final String s;
        private final StringBuilder out;
        private int[] offsets;
        private final List<Frame> frames = new ArrayList<>();
        /** The significant tokens since the last {@code ;}, <code>{</code> or <code>}</code> at the current level. */
        private final List<Token> recent = new ArrayList<>();
        /** Where in the outline the current member began (after the last {@code ;}, <code>{</code> or <code>}</code>). */
        private int memberStart;

        Scan(String s) {
            this.s = s;
            this.out = new StringBuilder(s.length() / 2);
            this.offsets = new int[Math.max(16, s.length() / 2)];
        }

        /** Appends the file's character at {@code at}. */
        private void emit(int at) {
            if (out.length() == offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
            }
            offsets[out.length()] = at;
            out.append(s.charAt(at));
        }

        /** Appends the file's characters {@code [from, to)}. */
        private void emit(int from, int to) {
            for (int k = from; k < to; k++) {
                emit(k);
            }
        }

        /** Stands for white space or a comment at {@code at}: one space, unless one is there already. */
        private void space(int at) {
            if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
                if (out.length() == offsets.length) {
                    offsets = Arrays.copyOf(offsets, offsets.length * 2);
                }
                offsets[out.length()] = at;
                out.append(' ');
            }
        }

        /**
         * Appends {@code [from, to)} compressed: comments and white space become single spaces,
         * literals and everything else are kept.
         */
        private void compress(int from, int to) {
            int i = from;
            while (i < to) {
                char c = s.charAt(i);
                if (c == '/' && i + 1 < to && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*')) {
                    space(i);
                    i = Math.min(to, skipComment(i));
                } else if (c == '"' || c == '\'') {
                    int end = Math.min(to, skipLiteral(i));
                    emit(i, end);
                    i = end;
                } else if (Character.isWhitespace(c)) {
                    space(i);
                    i++;
                } else {
                    emit(i);
                    i++;
                }
            }
        }

        Outline run() {
            int i = 0;
            int n = s.length();
            while (i < n) {
                char c = s.charAt(i);
                if (c == '/' && i + 1 < n && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*')) {
                    space(i);
                    i = skipComment(i);
                } else if (c == '"' || c == '\'') {
                    int end = skipLiteral(i);
                    recent.add(new Token(i, "\"\""));
                    emit(i, end);
                    i = end;
                } else if (Character.isJavaIdentifierStart(c)) {
                    int end = i + 1;
                    while (end < n && Character.isJavaIdentifierPart(s.charAt(end))) {
                        end++;
                    }
                    recent.add(new Token(i, s.substring(i, end)));
                    emit(i, end);
                    i = end;
                } else if (c == '{') {
                    i = open(i);
                } else if (c == '}') {
                    if (!frames.isEmpty()) {
                        frames.remove(frames.size() - 1);
                    }
                    recent.clear();
                    emit(i);
                    memberStart = out.length();
                    i++;
                } else if (c == ';') {
                    recent.clear();
                    emit(i);
                    memberStart = out.length();
                    i++;
                } else if (Character.isWhitespace(c)) {
                    space(i);
                    i++;
                } else {
                    if (c == '-' && i + 1 < n && s.charAt(i + 1) == '>') {
                        recent.add(new Token(i, "->"));
                        emit(i, i + 2);
                        i += 2;
                    } else {
                        recent.add(new Token(i, String.valueOf(c)));
                        emit(i);
                        i++;
                    }
                }
            }
            return new Outline(out.toString(), Arrays.copyOf(offsets, out.length()));
        }

        /** Handles a <code>{</code> at offset {@code i}; returns where the scan goes on. */
        private int open(int i) {
            boolean memberLevel = frames.isEmpty() || frames.get(frames.size() - 1) == Frame.TYPE;
            String kind = memberLevel ? classify() : "verbatim";
            recent.clear();
            if (kind.equals("type")) {
                frames.add(Frame.TYPE);
                emit(i);
                memberStart = out.length();
                return i + 1;
            }
            int close = matching(i);
            if (close < 0) {
                compress(i, s.length()); // unbalanced: keep the rest as it is
                return s.length();
            }
            if (kind.equals("body")
                    && close - i - 1 > KEPT_BODY_CHARS
                    && !mentionsKeepWord(i + 1, close)
                    && !runsStatementsOnOwnConnection(i + 1, close)) {
                // the whole member goes: its signature too (no other file reads a long body's method)
                out.setLength(memberStart);
                space(close);
            } else {
                // a short or hash body; an enum, an array initializer, a lambda or anonymous class in a
                // field initializer: kept
                compress(i, close + 1);
            }
            memberStart = out.length();
            return close + 1;
        }

        /** What the <code>{</code> just met at member level opens: "type", "body" or "verbatim". */
        private String classify() {
            if (recent.isEmpty()) {
                return "body"; // an instance initializer
            }
            Token last = recent.get(recent.size() - 1);
            if (atTop("enum")) {
                return "verbatim";
            }
            if (atTop("class") || atTop("interface")) {
                return "type";
            }
            switch (last.text()) {
                case "static" -> {
                    return "body";
                }
                case ")" -> {
                    int open = matchingOpenParen(recent.size() - 1);
                    if (open < 0) {
                        return "verbatim";
                    }
                    int name = open - 1;
                    if (name >= 0 && recent.get(name).text().equals(">")) {
                        name = matchingOpenAngle(name) - 1;
                    }
                    if (name >= 1 && recent.get(name - 1).text().equals("record")) {
                        return "type";
                    }
                    if (name >= 1 && recent.get(name - 1).text().equals("new")) {
                        return "verbatim";
                    }
                    if (atTop("=", name) || atTop("->", name) || atTop("record", name)) {
                        return "verbatim"; // a field initializer, or a record header with annotations
                    }
                    return name >= 0 && isWord(recent.get(name).text()) ? "body" : "verbatim";
                }
                default -> {
                    if (atTop("record")) {
                        return "type";
                    }
                    if (atTop("=") || atTop("->")) {
                        return "verbatim";
                    }
                    return atTop("throws") ? "body" : "verbatim";
                }
            }
        }

        /** Whether {@code word} is among the first {@code limit} recent tokens, outside parentheses and not after a dot. */
        private boolean atTop(String word, int limit) {
            int depth = 0;
            for (int k = 0; k < limit; k++) {
                String t = recent.get(k).text();
                if (t.equals("(")) {
                    depth++;
                } else if (t.equals(")")) {
                    depth--;
                } else if (depth == 0
                        && t.equals(word)
                        && (k == 0 || !recent.get(k - 1).text().equals("."))) {
                    return true;
                }
            }
            return false;
        }

        private boolean atTop(String word) {
            return atTop(word, recent.size());
        }

        private int matchingOpenParen(int close) {
            int depth = 0;
            for (int k = close; k >= 0; k--) {
                String t = recent.get(k).text();
                if (t.equals(")")) {
                    depth++;
                } else if (t.equals("(") && --depth == 0) {
                    return k;
                }
            }
            return -1;
        }

        private int matchingOpenAngle(int close) {
            int depth = 0;
            for (int k = close; k >= 0; k--) {
                String t = recent.get(k).text();
                if (t.equals(">")) {
                    depth++;
                } else if (t.equals("<") && --depth == 0) {
                    return k;
                }
            }
            return -1;
        }

        private static boolean isWord(String t) {
            return !t.isEmpty() && Character.isJavaIdentifierStart(t.charAt(0));
        }

        /** The offset of the <code>}</code> that closes the <code>{</code> at {@code open}, or -1. */
        private int matching(int open) {
            int depth = 0;
            int n = s.length();
            int i = open;
            while (i < n) {
                char c = s.charAt(i);
                if (c == '/' && i + 1 < n && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*')) {
                    i = skipComment(i);
                    continue;
                }
                if (c == '"' || c == '\'') {
                    i = skipLiteral(i);
                    continue;
                }
                if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    return i;
                }
                i++;
            }
            return -1;
        }

        private boolean mentionsKeepWord(int from, int to) {
            for (int k = from; k < to; k++) {
                char c = (char) (s.charAt(k) | 0x20);
                if (c != 'h' && c != 'c' && c != 'a') {
                    continue; // the first letters of the keep words
                }
                for (String w : KEEP_WORDS) {
                    if (k + w.length() <= to && s.regionMatches(true, k, w, 0, w.length())) {
                        return true;
                    }
                }
            }
            return false;
        }

        /**
         * A body that borrows a connection and prepares or creates statements on it: perhaps a query helper
         * ({@code fetchOne(sql, ..)}) whose calls in other files run lock SQL on a connection it closes before
         * returning ({@code SqlWrappers.OwnConnection}).
         */
        private boolean runsStatementsOnOwnConnection(int from, int to) {
            return JavaOutline.runsStatementsOnOwnConnection(s, from, to);
        }

        private int skipComment(int i) {
            return JavaOutline.skipComment(s, i);
        }

        private int skipLiteral(int i) {
            return JavaOutline.skipLiteral(s, i);
        }
    }
}
