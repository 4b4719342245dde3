package io.github.pgadvisorylint.core.keys;

import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Facts about key parts shared by the key rules and the key inventory: where a value was written
 * (its origin identity), how to describe it, what an out-of-range literal's value is, and the
 * {@code pg_locks} columns a key shows as (RULES.md F6; PostgreSQL docs "pg_locks": {@code classid}
 * and {@code objid} are {@code oid}, unsigned 32-bit).
 */
public final class KeyFacts {

    private static final BigInteger UINT32_MASK = BigInteger.valueOf(0xFFFF_FFFFL);
    /** A bare SQL integer literal, optionally signed, parenthesised or cast: the text of an out-of-range argument. */
    private static final Pattern SQL_INTEGER =
            Pattern.compile("\\(*\\s*([+-]?)\\s*(\\d+)\\s*\\)*(?:\\s*::\\s*[a-z0-9_ ]+)?", Pattern.CASE_INSENSITIVE);

    private KeyFacts() {}

    /**
     * Where a part's value was written: two parts with the same identity come from one source
     * (one named constant, one literal), so using them twice is one key used twice, not a collision.
     *
     * @param part a key part
     * @return {@code const:<qualified name>} for a named constant, {@code at:<region>} for a literal
     *     written in place, {@code expr:<canonical text>} when neither is recorded
     */
    public static String identity(KeyPart part) {
        if (part.originName() != null) {
            return "const:" + part.originName();
        }
        if (part.origin() != null) {
            return "at:" + part.origin().path() + ":" + part.origin().startLine() + ":"
                    + part.origin().startColumn();
        }
        return "expr:" + part.canonical();
    }

    /**
     * @param part a key part
     * @return e.g. {@code com.acme.LockKeys.INVOICE_RUN (src/…/LockKeys.java:12:5)},
     *     {@code literal 9001 (db/V2.sql:3:30)}, {@code hashtext('abc') (…)}, or the expression for an unknown part
     */
    public static String describeOrigin(KeyPart part) {
        String where = part.origin() == null ? "" : " (" + part.origin() + ")";
        if (part.originName() != null) {
            return part.originName() + where;
        }
        if (part.hash() != null && part.hash().input() != null) {
            return hashDisplay(part.hash()) + where;
        }
        if (part.isKnown()) {
            return "literal " + part.expression() + where;
        }
        if (part.hash() != null) {
            return part.expression() + " (" + hashName(part.hash().function()) + " of a run-time value)";
        }
        return switch (part.kind()) {
            case COLUMN -> "column " + part.expression() + " (one key per row)";
            case PARAMETER -> "bound value " + part.expression();
            default -> "expression " + part.expression();
        };
    }

    private static String hashName(KeyHash.Function f) {
        return switch (f) {
            case HASHTEXT -> "hashtext";
            case HASHTEXTEXTENDED -> "hashtextextended";
            case STRING_HASHCODE -> "String.hashCode";
            case CRC32 -> "CRC32";
            case ADLER32 -> "Adler32";
            case UUID_HASHCODE -> "UUID.hashCode";
            case OBJECTS_HASH -> "Objects.hash";
            case HASHCODE -> "hashCode";
            case IDENTITY_HASHCODE -> "identity hash";
        };
    }

    /**
     * @param hash a hash with a known input
     * @return e.g. {@code hashtext('abc')}, {@code "abc".hashCode()}, {@code CRC32("abc")}
     */
    public static String hashDisplay(KeyHash hash) {
        String in = hash.input() == null ? "…" : hash.input();
        return switch (hash.function()) {
            case HASHTEXT -> "hashtext('" + in.replace("'", "''") + "')";
            case HASHTEXTEXTENDED -> "hashtextextended('" + in.replace("'", "''") + "', …)";
            case STRING_HASHCODE -> "\"" + in + "\".hashCode()";
            case CRC32 -> "CRC32(\"" + in + "\")";
            case ADLER32 -> "Adler32(\"" + in + "\")";
            default -> hash.function().name().toLowerCase(Locale.ROOT) + "(" + in + ")";
        };
    }

    /**
     * The integer a part stands for even when it does not fit a {@code long}: the known value, or an
     * unknown part whose text is a bare SQL integer literal (the SQL front end leaves literals outside
     * {@code bigint} unknown, with their text).
     *
     * @param part a key part
     * @return the integer, or null when the part is not a literal or known value
     */
    public static BigInteger integerValue(KeyPart part) {
        if (part.isKnown()) {
            return BigInteger.valueOf(part.value());
        }
        if (part.kind() != KeyPart.Kind.UNKNOWN
                || part.hash() != null
                || part.expression().length() > 60) {
            return null;
        }
        Matcher m = SQL_INTEGER.matcher(part.expression().trim());
        if (!m.matches()) {
            return null;
        }
        BigInteger v = new BigInteger(m.group(2));
        return m.group(1).equals("-") ? v.negate() : v;
    }

    /** The {@code pg_locks} columns of one advisory lock; a null field is not known statically. */
    public record PgLocksRow(Long classid, Long objid, int objsubid) {}

    /**
     * @param key a one-bigint or two-int key
     * @return its {@code pg_locks} row: a bigint {@code k} shows {@code classid} = high 32 bits,
     *     {@code objid} = low 32 bits, {@code objsubid} = 1; a pair {@code (a, b)} shows
     *     {@code classid} = a, {@code objid} = b, {@code objsubid} = 2; both as unsigned 32-bit
     *     {@code oid}s (0..4294967295)
     * @throws IllegalArgumentException for {@link KeySpace#NONE}
     */
    public static PgLocksRow pgLocks(LockKey key) {
        if (key.space() == KeySpace.BIGINT) {
            KeyPart k = key.parts().get(0);
            if (!k.isKnown()) {
                return new PgLocksRow(null, null, 1);
            }
            long v = k.value();
            return new PgLocksRow(v >>> 32, v & 0xFFFF_FFFFL, 1);
        }
        if (key.space() == KeySpace.INT_PAIR) {
            return new PgLocksRow(oid(key.parts().get(0)), oid(key.parts().get(1)), 2);
        }
        throw new IllegalArgumentException("pg_advisory_unlock_all() has no key");
    }

    /**
     * A key read back from a live {@code pg_locks} row.
     *
     * @param space  {@link KeySpace#BIGINT} or {@link KeySpace#INT_PAIR}
     * @param values the argument values as a lock call writes them: one {@code bigint}, or two {@code int}s
     */
    public record DecodedKey(KeySpace space, List<Long> values) {

        /** Copies the list. */
        public DecodedKey {
            values = List.copyOf(values);
        }

        /** @return e.g. {@code 9001} or {@code 12, 77} */
        public String value() {
            return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
        }

        /** @return {@code bigint} or {@code int, int} */
        public String spaceName() {
            return space == KeySpace.BIGINT ? "bigint" : "int, int";
        }
    }

    /**
     * The inverse of {@link #pgLocks(LockKey)} for a row of {@code pg_locks} with {@code locktype = 'advisory'}
     * (fact F6, checked against every tested PostgreSQL version by the facts suite): {@code objsubid} 1 is one
     * {@code bigint} key {@code classid << 32 | objid}; {@code objsubid} 2 is the pair {@code (classid, objid)},
     * each {@code oid} read back as a signed 32-bit {@code int}.
     *
     * @param classid  the {@code classid} column (0..4294967295)
     * @param objid    the {@code objid} column (0..4294967295)
     * @param objsubid the {@code objsubid} column
     * @return the key the lock call wrote
     * @throws IllegalArgumentException for an {@code objsubid} other than 1 or 2, or an oid out of range
     */
    public static DecodedKey decode(long classid, long objid, int objsubid) {
        if (classid < 0 || classid > 0xFFFF_FFFFL || objid < 0 || objid > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("not an oid: classid " + classid + ", objid " + objid);
        }
        return switch (objsubid) {
            case 1 -> new DecodedKey(KeySpace.BIGINT, List.of(classid << 32 | objid));
            case 2 -> new DecodedKey(KeySpace.INT_PAIR, List.of((long) (int) classid, (long) (int) objid));
            default ->
                throw new IllegalArgumentException("objsubid " + objsubid + " is not an advisory key space (1 or 2)");
        };
    }

    private static Long oid(KeyPart p) {
        return p.isKnown() ? BigInteger.valueOf(p.value()).and(UINT32_MASK).longValueExact() : null;
    }
}
