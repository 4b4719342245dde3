package io.github.pgadvisorylint.rules.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Mutators for text and bytes: a seed and up to six edits (cut, insert noise anywhere or next to a lock
 * call, a key or a quote, write a character as a Java unicode escape, delete, copy, splice a piece of
 * another seed, nest, swap lines; for bytes: flip bits, insert invalid UTF-8, byte-order marks and NUL).
 * Positions are fractions of the length, so a failing input shrinks towards fewer edits near the
 * start. Every edit keeps the input small: a try ends fast, and a slow one is a finding.
 */
final class Mutations {

    /** Text that front ends and readers treat specially, and characters that break naive code. */
    static final List<String> NOISE = List.of(
            "\"",
            "\"\"\"",
            "'",
            "''",
            "`",
            "/*",
            "*/",
            "//",
            "--",
            "#",
            "{",
            "}",
            "(",
            ")",
            "[",
            "]",
            "<",
            ">",
            ";",
            ",",
            ":",
            "::",
            "$$",
            "$x$",
            "$1",
            "?",
            ":key",
            "\\",
            "\\u",
            "\\u0022",
            "\\uD800",
            "\\u000a",
            "\\uuu005c",
            "E'\\",
            "U&'",
            "\n",
            "\r",
            "\r\n",
            "\t",
            "\u0000",
            "\u0007",
            "\u001b[2J",
            "\u0085",
            "\u2028",
            "\u202E",
            "\uFEFF",
            "\uFFFD",
            "\uFFFF",
            "\uD83D\uDE00",
            "\uD800",
            "\uDC00",
            "e\u0301",
            "pg_advisory_lock(",
            "pg_try_advisory_lock(1)",
            "pg_advisory_unlock(",
            "pg_advisory_xact_lock(2, 3)",
            "SELECT ",
            "BEGIN",
            "END;",
            "DO $$",
            "LANGUAGE plpgsql",
            "LIMIT 1",
            "COMMIT;",
            "@Transactional",
            "try {",
            "} finally {",
            "catch (Exception e) {",
            "class ",
            "record R(",
            "enum E {",
            "->",
            "<T extends ",
            "@interface A {",
            "synchronized (",
            "switch (x) { case 1 -> ",
            "yield ",
            "sealed ",
            "permits ",
            "\"\"\"\n",
            "+ \"",
            "String.format(\"",
            "&a ",
            "*a",
            "!!binary ",
            "- ",
            "? ",
            "---\n",
            "...\n",
            "%YAML 1.2\n",
            "|\n",
            ">-\n",
            "${",
            "}",
            "=",
            "[pgbouncer]\n",
            "<!--",
            "<![CDATA[",
            "&amp;",
            "<!DOCTYPE x [");

    private Mutations() {}

    /** @return one piece of noise: special syntax, a few random characters, or one control or odd character */
    static Arbitrary<String> noise() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(NOISE)),
                Tuple.of(2, Arbitraries.strings().all().ofMinLength(1).ofMaxLength(4)),
                Tuple.of(2, Arbitraries.chars().range('\u0000', '\u00ff').map(String::valueOf)));
    }

    private static int at(String s, double fraction) {
        return Math.min(s.length(), (int) (s.length() * fraction));
    }

    /** @return a fraction in [0, 1] with six decimals (jqwik's default of two would allow 101 positions only) */
    static Arbitrary<Double> fraction() {
        return Arbitraries.doubles().between(0, 1).ofScale(6);
    }

    /** @param donors texts a splice takes a piece from */
    private static Arbitrary<UnaryOperator<String>> edit(List<String> donors) {
        Arbitrary<UnaryOperator<String>> truncate = fraction().map(f -> s -> s.substring(0, at(s, f)));
        Arbitrary<UnaryOperator<String>> insert = Combinators.combine(fraction(), noise())
                .as((f, n) -> s -> s.substring(0, at(s, f)) + n + s.substring(at(s, f)));
        // next to what the front ends read closely: a lock call, its key, a string or quote
        Arbitrary<UnaryOperator<String>> anchored = Combinators.combine(
                        fraction(),
                        noise(),
                        Arbitraries.of("advisory_", "lock(", "('", "hashtext(", "\"", "'", "$$", "(", "execute", "@"),
                        Arbitraries.integers().between(0, 12))
                .as((f, n, anchor, shift) -> s -> {
                    List<Integer> hits = new ArrayList<>();
                    for (int i = s.indexOf(anchor); i >= 0 && hits.size() < 1000; i = s.indexOf(anchor, i + 1)) {
                        hits.add(i);
                    }
                    if (hits.isEmpty()) {
                        return s;
                    }
                    int i = Math.min(s.length(), hits.get(Math.min(hits.size() - 1, (int) (hits.size() * f))) + shift);
                    return s.substring(0, i) + n + s.substring(i);
                });
        // a character written as a Java unicode escape, decoded before parsing: a quote, a line end, a
        // backslash, half a surrogate pair, or the character itself
        Arbitrary<UnaryOperator<String>> escape = Combinators.combine(
                        fraction(),
                        Arbitraries.of("lock(", "('", "\"SELECT ", "'", "\""),
                        Arbitraries.oneOf(
                                Arbitraries.just(-1),
                                Arbitraries.of(0x22, 0x27, 0x0A, 0x0D, 0x5C, 0x2028),
                                Arbitraries.of(0xD800, 0xDBFF, 0xDC00, 0xDFFF)))
                .as((f, anchor, code) -> s -> {
                    List<Integer> hits = new ArrayList<>();
                    for (int i = s.indexOf(anchor); i >= 0 && hits.size() < 1000; i = s.indexOf(anchor, i + 1)) {
                        hits.add(i + anchor.length());
                    }
                    int i = hits.isEmpty() ? at(s, f) : hits.get(Math.min(hits.size() - 1, (int) (hits.size() * f)));
                    if (i >= s.length()) {
                        return s;
                    }
                    int c = code < 0 ? s.charAt(i) : code;
                    return s.substring(0, i) + String.format("\\u%04x", c) + s.substring(code < 0 ? i + 1 : i);
                });
        Arbitrary<UnaryOperator<String>> delete = Combinators.combine(
                        fraction(), Arbitraries.integers().between(1, 64))
                .as((f, len) -> s -> s.substring(0, at(s, f)) + s.substring(Math.min(s.length(), at(s, f) + len)));
        Arbitrary<UnaryOperator<String>> copy = Combinators.combine(
                        fraction(), Arbitraries.integers().between(1, 200), fraction())
                .as((from, len, to) -> s -> {
                    int a = at(s, from);
                    String piece = s.substring(a, Math.min(s.length(), a + len));
                    int b = at(s, to);
                    return s.substring(0, b) + piece + s.substring(b);
                });
        Arbitrary<UnaryOperator<String>> splice = Combinators.combine(
                        fraction(),
                        Arbitraries.integers().between(0, donors.size() - 1),
                        fraction(),
                        Arbitraries.integers().between(1, 400))
                .as((to, donor, from, len) -> s -> {
                    String d = donors.get(donor);
                    int a = at(d, from);
                    int b = at(s, to);
                    return s.substring(0, b) + d.substring(a, Math.min(d.length(), a + len)) + s.substring(b);
                });
        Arbitrary<UnaryOperator<String>> nest = Combinators.combine(
                        fraction(),
                        fraction(),
                        Arbitraries.integers().between(1, 300),
                        Arbitraries.of(
                                "(", "{", "[", "BEGIN ", "CASE WHEN ", "/*", "<a>", "- ", "  ", "new A(", "x ? "),
                        Arbitraries.of(")", "}", "]", " END;", " END", "*/", "</a>", "", ":"))
                .as((f, g, depth, open, close) -> s -> {
                    int a = at(s, Math.min(f, g));
                    int b = at(s, Math.max(f, g));
                    return s.substring(0, a)
                            + open.repeat(depth)
                            + s.substring(a, b)
                            + close.repeat(depth)
                            + s.substring(b);
                });
        Arbitrary<UnaryOperator<String>> swapLines = Combinators.combine(fraction(), fraction())
                .as((f, g) -> s -> {
                    String[] lines = s.split("\n", -1);
                    int i = Math.min(lines.length - 1, (int) (lines.length * f));
                    int j = Math.min(lines.length - 1, (int) (lines.length * g));
                    String t = lines[i];
                    lines[i] = lines[j];
                    lines[j] = t;
                    return String.join("\n", lines);
                });
        return Arbitraries.frequencyOf(
                Tuple.of(2, truncate),
                Tuple.of(3, insert),
                Tuple.of(3, anchored),
                Tuple.of(2, escape),
                Tuple.of(3, delete),
                Tuple.of(2, copy),
                Tuple.of(2, splice),
                Tuple.of(1, nest),
                Tuple.of(1, swapLines));
    }

    /**
     * @param seeds texts to start from
     * @return a seed with up to six edits, or as it is
     */
    static Arbitrary<String> mutatedText(List<String> seeds) {
        return mutatedText(Arbitraries.of(seeds), seeds);
    }

    /**
     * @param seed   the text to start from
     * @param donors texts a splice takes a piece from
     * @return the seed with up to six edits, or as it is
     */
    static Arbitrary<String> mutatedText(Arbitrary<String> seed, List<String> donors) {
        return mutatedText(seed, donors, 6);
    }

    /**
     * @param seed     the text to start from
     * @param donors   texts a splice takes a piece from
     * @param maxEdits the most edits
     * @return the seed with up to {@code maxEdits} edits, or as it is
     */
    static Arbitrary<String> mutatedText(Arbitrary<String> seed, List<String> donors, int maxEdits) {
        return Combinators.combine(seed, edit(donors).list().ofMinSize(1).ofMaxSize(maxEdits))
                .as((start, edits) -> {
                    String out = start;
                    for (UnaryOperator<String> e : edits) {
                        out = e.apply(out);
                    }
                    return out;
                });
    }

    /** Byte sequences that decoders trip on: invalid UTF-8, encoded surrogates, byte-order marks, NUL. */
    private static final List<byte[]> ODD_BYTES = List.of(
            new byte[] {(byte) 0xC3, 0x28},
            new byte[] {(byte) 0xFF},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            new byte[] {(byte) 0xFE, (byte) 0xFF},
            new byte[] {(byte) 0xFF, (byte) 0xFE},
            new byte[] {0},
            new byte[] {0x1B, '['},
            new byte[] {'\r'});

    private static int at(byte[] b, double fraction) {
        return Math.min(b.length, (int) (b.length * fraction));
    }

    private static byte[] splice(byte[] b, int from, int to, byte[] piece) {
        byte[] out = new byte[from + piece.length + (b.length - to)];
        System.arraycopy(b, 0, out, 0, from);
        System.arraycopy(piece, 0, out, from, piece.length);
        System.arraycopy(b, to, out, from + piece.length, b.length - to);
        return out;
    }

    private static Arbitrary<UnaryOperator<byte[]>> byteEdit() {
        Arbitrary<UnaryOperator<byte[]>> truncate = fraction().map(f -> b -> Arrays.copyOf(b, at(b, f)));
        Arbitrary<UnaryOperator<byte[]>> flip = Combinators.combine(
                        fraction(), Arbitraries.integers().between(0, 7))
                .as((f, bit) -> b -> {
                    byte[] out = b.clone();
                    int i = at(b, f);
                    if (i < out.length) {
                        out[i] ^= (byte) (1 << bit);
                    }
                    return out;
                });
        Arbitrary<UnaryOperator<byte[]>> odd = Combinators.combine(fraction(), Arbitraries.of(ODD_BYTES))
                .as((f, piece) -> b -> splice(b, at(b, f), at(b, f), piece));
        Arbitrary<UnaryOperator<byte[]>> random = Combinators.combine(
                        fraction(),
                        Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(8))
                .as((f, piece) -> b -> splice(b, at(b, f), at(b, f), piece));
        Arbitrary<UnaryOperator<byte[]>> delete = Combinators.combine(
                        fraction(), Arbitraries.integers().between(1, 64))
                .as((f, len) -> b -> splice(b, at(b, f), Math.min(b.length, at(b, f) + len), new byte[0]));
        Arbitrary<UnaryOperator<byte[]>> text =
                Combinators.combine(fraction(), noise()).as((f, n) -> b -> splice(b, at(b, f), at(b, f), bytes(n)));
        return Arbitraries.frequencyOf(
                Tuple.of(1, truncate),
                Tuple.of(3, flip),
                Tuple.of(2, odd),
                Tuple.of(1, random),
                Tuple.of(2, delete),
                Tuple.of(3, text));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param seeds byte sequences to start from
     * @return a seed with up to six byte-level edits, or as it is, or (rarely) random bytes
     */
    static Arbitrary<byte[]> mutatedBytes(List<byte[]> seeds) {
        Arbitrary<byte[]> edited = Combinators.combine(
                        Arbitraries.of(seeds), byteEdit().list().ofMinSize(1).ofMaxSize(6))
                .as((seed, edits) -> {
                    byte[] out = seed;
                    for (UnaryOperator<byte[]> e : edits) {
                        out = e.apply(out);
                    }
                    return out;
                });
        return Arbitraries.frequencyOf(
                Tuple.of(9, edited),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(300)));
    }

    /**
     * @param maxFiles the most files
     * @return a tree of one to {@code maxFiles} fixture files of every kind at their fixture paths (a
     *     README aside), each mutated as text or as bytes, or left as it is
     */
    static Arbitrary<Map<String, byte[]>> fixtureTree(int maxFiles) {
        List<Corpus.Seed> seeds =
                Corpus.all().stream().filter(s -> !s.path().endsWith(".txt")).toList();
        List<String> donors = seeds.stream().map(Corpus.Seed::text).toList();
        Arbitrary<Map.Entry<String, byte[]>> file = Arbitraries.of(seeds)
                .flatMap(seed -> Arbitraries.oneOf(
                        // up to three edits: most files still parse, so the rules and the cache see their facts
                        mutatedText(Arbitraries.just(seed.text()), donors, 3)
                                .map(t -> Map.entry(seed.path(), t.getBytes(StandardCharsets.UTF_8))),
                        mutatedBytes(List.of(seed.bytes())).map(b -> Map.entry(seed.path(), b))));
        return file.list().ofMinSize(1).ofMaxSize(maxFiles).map(entries -> {
            Map<String, byte[]> tree = new LinkedHashMap<>();
            entries.forEach(e -> tree.put(e.getKey(), e.getValue()));
            return tree;
        });
    }
}
