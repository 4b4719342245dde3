package io.github.pgadvisorylint.core.config;

import com.google.re2j.Pattern;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * File globs as the configuration file and the Maven plugin write them: {@code *} and {@code ?}
 * within one directory, {@code **} across directories, {@code {a,b}} alternatives (not nested),
 * {@code [abc]}, {@code [a-z]} and {@code [!abc]} classes that never match {@code /}. Two Ant
 * conventions on top: a leading {@code **}{@code /} also matches no directory at all, and a pattern
 * ending in {@code /} means everything below that directory. Backslashes are read as {@code /}.
 * Patterns are matched against relative paths, whose names are joined with {@code /} whatever the
 * platform's separator.
 *
 * <p>Matching takes time linear in the path for any pattern: a glob is translated into a regular
 * expression for RE2/J, an automaton-based engine that never backtracks (the JDK's glob matcher is
 * a backtracking regex, so {@code "***************x"} took minutes on one path). A run of two or more
 * stars is first collapsed to one {@code **}, which matches the same paths, so the expression stays
 * short as well.
 */
public final class Globs {

    private final List<Pattern> patterns;

    private Globs(List<Pattern> patterns) {
        this.patterns = patterns;
    }

    /**
     * @param patterns the globs
     * @return the compiled globs; empty for no patterns
     * @throws IllegalArgumentException for a blank or malformed glob, with the pattern and the reason
     */
    public static Globs compile(Collection<String> patterns) {
        List<Pattern> out = new ArrayList<>();
        for (String glob : patterns) {
            out.addAll(compileOne(glob));
        }
        return new Globs(List.copyOf(out));
    }

    /**
     * @param glob one glob
     * @throws IllegalArgumentException when it is blank or malformed, saying why
     */
    public static void check(String glob) {
        compileOne(glob);
    }

    private static List<Pattern> compileOne(String glob) {
        if (glob == null || glob.isBlank()) {
            throw new IllegalArgumentException("empty pattern");
        }
        String g = glob.trim().replace('\\', '/');
        if (g.endsWith("/")) {
            g = g + "**";
        }
        try {
            List<Pattern> out = new ArrayList<>();
            out.add(Pattern.compile(toRegex(g), Pattern.DOTALL));
            if (g.startsWith("**/")) {
                out.add(Pattern.compile(toRegex(g.substring(3)), Pattern.DOTALL));
            }
            return out;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + glob + "' is not a valid glob: " + e.getMessage(), e);
        }
    }

    /**
     * Translates one glob into an RE2 expression.
     *
     * @throws IllegalArgumentException for an unclosed or nested group, an unclosed class, or a
     *     class that names {@code /}
     */
    static String toRegex(String glob) {
        StringBuilder re = new StringBuilder();
        boolean inGroup = false;
        int i = 0;
        int n = glob.length();
        while (i < n) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> {
                    int j = i;
                    while (j < n && glob.charAt(j) == '*') {
                        j++;
                    }
                    re.append(j - i >= 2 ? ".*" : "[^/]*");
                    i = j;
                    continue;
                }
                case '?' -> re.append("[^/]");
                case '[' -> {
                    i = appendClass(glob, i, re);
                    continue;
                }
                case '{' -> {
                    if (inGroup) {
                        throw new IllegalArgumentException("Cannot nest groups near index " + i);
                    }
                    inGroup = true;
                    re.append("(?:");
                }
                case '}' -> {
                    if (inGroup) {
                        inGroup = false;
                        re.append(')');
                    } else {
                        re.append("\\}");
                    }
                }
                case ',' -> re.append(inGroup ? "|" : ",");
                default -> appendLiteral(re, c);
            }
            i++;
        }
        if (inGroup) {
            throw new IllegalArgumentException("Missing '}");
        }
        return re.toString();
    }

    private static int appendClass(String glob, int open, StringBuilder re) {
        int i = open + 1;
        int n = glob.length();
        StringBuilder cls = new StringBuilder("[");
        if (i < n && (glob.charAt(i) == '!' || glob.charAt(i) == '^')) {
            cls.append("^/");
            i++;
        }
        boolean first = true;
        while (i < n && (glob.charAt(i) != ']' || first)) {
            char c = glob.charAt(i);
            if (c == '/') {
                throw new IllegalArgumentException("Explicit 'name separator' in class near index " + i);
            }
            if (c == '-' && !first && i + 1 < n && glob.charAt(i + 1) != ']') {
                char from = glob.charAt(i - 1);
                char to = glob.charAt(i + 1);
                if (from > to) {
                    throw new IllegalArgumentException("Invalid range near index " + i);
                }
                if (from <= '/' && '/' <= to) {
                    throw new IllegalArgumentException("Range spans the name separator near index " + i);
                }
                cls.append('-');
            } else {
                appendClassChar(cls, c);
            }
            first = false;
            i++;
        }
        if (i >= n) {
            throw new IllegalArgumentException("Missing ']");
        }
        re.append(cls).append(']');
        return i + 1;
    }

    private static void appendClassChar(StringBuilder cls, char c) {
        if (c == '\\' || c == ']' || c == '[' || c == '^' || c == '-') {
            cls.append('\\');
        }
        cls.append(c);
    }

    private static void appendLiteral(StringBuilder re, char c) {
        if ("\\.^$|()[]{}+*?".indexOf(c) >= 0) {
            re.append('\\');
        }
        re.append(c);
    }

    /** @return true when there is no pattern */
    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /**
     * @param relative a relative path
     * @return true when some pattern matches it
     */
    public boolean matches(Path relative) {
        StringBuilder text = new StringBuilder();
        for (Path name : relative) {
            if (text.length() > 0) {
                text.append('/');
            }
            text.append(name);
        }
        String s = text.toString();
        for (Pattern p : patterns) {
            if (p.matches(s)) {
                return true;
            }
        }
        return false;
    }
}
