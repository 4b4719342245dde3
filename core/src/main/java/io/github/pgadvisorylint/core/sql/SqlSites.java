package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.keys.PostgresHash;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeyPopulation;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns the SQL front end's calls into model values shared by the Java and SQL file front ends. */
public final class SqlSites {

    private SqlSites() {}

    /**
     * @param call   a lock call found by {@link SqlAnalyzer}
     * @param region maps a {@code [start, end)} range of the analysed SQL text to a file region, or null
     * @return its key: one part per argument, known values kept with their literal's region as origin
     */
    public static LockKey key(SqlLockCall call, BiFunction<Integer, Integer, SourceRegion> region) {
        List<KeyPart> parts = new ArrayList<>();
        for (SqlArgument a : call.arguments()) {
            KeyPart hashed = hashed(a, region);
            if (hashed != null) {
                parts.add(hashed);
            } else if (a.kind() == KeyPart.Kind.KNOWN && a.value() != null) {
                parts.add(KeyPart.known(a.value(), a.text(), region.apply(a.start(), a.end())));
            } else {
                parts.add(KeyPart.of(a.kind() == KeyPart.Kind.KNOWN ? KeyPart.Kind.UNKNOWN : a.kind(), a.text()));
            }
        }
        return new LockKey(KeySpace.ofArity(parts.size()), parts);
    }

    /** {@code hashtext('lit')} or {@code hashtextextended('lit', seed)}, optionally cast; a parameter argument gives a hashed-unknown part. */
    private static final Pattern HASH_CALL = Pattern.compile(
            "(?is)\\(*\\s*(?:pg_catalog\\.)?(hashtext|hashtextextended)\\s*\\(\\s*(?:'((?:[^']|'')*)'|([^,()]*))\\s*(?:::\\s*text\\s*)?"
                    + "(?:,\\s*(-?\\d{1,19})\\s*)?\\)\\s*\\)*\\s*(?:::\\s*(?:bigint|int8|integer|int4|int)\\s*)?");

    private static KeyPart hashed(SqlArgument a, BiFunction<Integer, Integer, SourceRegion> region) {
        String text = a.text();
        if (text.length() > 500 || !text.toLowerCase(Locale.ROOT).contains("hashtext")) {
            return null;
        }
        Matcher m = HASH_CALL.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        boolean extended = m.group(1).equalsIgnoreCase("hashtextextended");
        KeyHash.Function fn = extended ? KeyHash.Function.HASHTEXTEXTENDED : KeyHash.Function.HASHTEXT;
        if (m.group(2) == null || (extended && m.group(4) == null)) {
            return KeyPart.hashed(
                    a.kind() == KeyPart.Kind.KNOWN ? KeyPart.Kind.UNKNOWN : a.kind(),
                    text,
                    new KeyHash(fn, null, population(a.kind(), m.group(3))));
        }
        String input = m.group(2).replace("''", "'");
        long value = extended
                ? PostgresHash.hashtextextended(input, Long.parseLong(m.group(4)))
                : PostgresHash.hashtext(input);
        return KeyPart.known(value, text, region.apply(a.start(), a.end()), null, new KeyHash(fn, input));
    }

    /**
     * What the SQL says about how many values a hashed argument takes: a column of the rows the query
     * reads is one key per row; otherwise the words of the names in the argument.
     */
    private static KeyPopulation population(KeyPart.Kind kind, String argument) {
        if (kind == KeyPart.Kind.COLUMN) {
            return KeyPopulation.many("a column, one key per row the query reads");
        }
        if (argument == null) {
            return KeyPopulation.UNKNOWN;
        }
        List<String> names = new ArrayList<>();
        Matcher w = IDENTIFIER.matcher(argument);
        while (w.find()) {
            names.add(w.group());
        }
        return KeyPopulation.ofIdentifiers(names);
    }

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
}
