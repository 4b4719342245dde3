package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Locale;
import java.util.Objects;

/**
 * One argument of a lock key: a known value with its origin, a bound parameter, a per-row column,
 * or an expression whose value cannot be known statically.
 *
 * @param kind       what is known about the part
 * @param value      the value when {@code kind == KNOWN}, else null
 * @param expression the source text of the argument (SQL or Java), trimmed; never null
 * @param origin     where the value comes from (the literal, or a constant's declaration); may be null
 * @param originName the qualified name of the constant the value comes from (e.g.
 *                   {@code com.acme.LockKeys.INVOICE_JOB}), or null for a literal written in place
 * @param hash       the hash the part is derived from, or null
 * @param bound      how the value reaches PostgreSQL when Java binds it to a parameter (F20); never null
 */
public record KeyPart(
        Kind kind, Long value, String expression, SourceRegion origin, String originName, KeyHash hash, Bound bound) {

    /**
     * The SQL type a Java value bound to the part's parameter arrives as, from its setter
     * ({@code setLong}, {@code setInt}), its Java type ({@code long}, {@code Integer}, a cast) and a cast in
     * the SQL ({@code ?::int}).
     */
    public enum Bound {
        /** Not bound from Java, or the type is not visible. */
        UNKNOWN,
        /** An {@code integer}: {@code setInt}, an {@code int} or {@code Integer}. */
        INT4,
        /** A {@code bigint}: {@code setLong}, a {@code long} or {@code Long} (JDBC sends int8). */
        INT8,
        /**
         * A 64-bit id, primary key, sequence value or OID (by its names) the SQL casts to {@code integer}
         * ({@code ?::int}): out of range once it passes 2^31-1.
         */
        ID_CAST_TO_INT4,
        /**
         * An unsigned 32-bit checksum ({@code CRC32.getValue()}, {@code Adler32.getValue()}: 0 to 4294967295) bound as
         * a {@code long} that the SQL casts to {@code integer}: every value above 2^31-1, about half of them, is out
         * of range.
         */
        CHECKSUM_CAST_TO_INT4
    }

    /** A part with no Java binding type, see {@link Bound#UNKNOWN}. */
    public KeyPart(Kind kind, Long value, String expression, SourceRegion origin, String originName, KeyHash hash) {
        this(kind, value, expression, origin, originName, hash, Bound.UNKNOWN);
    }

    /** What is known about a key part. */
    public enum Kind {
        /** A value computed statically. */
        KNOWN,
        /** A bind parameter ({@code ?}, {@code :name}, {@code $1}, {@code #{x}}) whose value is not known. */
        PARAMETER,
        /** A column of the rows the query reads: one key per row. */
        COLUMN,
        /** Anything else. */
        UNKNOWN
    }

    /** Checks invariants: a known part has a value, other kinds have none. */
    public KeyPart {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(bound, "bound");
        if ((kind == Kind.KNOWN) != (value != null)) {
            throw new IllegalArgumentException("value must be set exactly for KNOWN parts");
        }
    }

    /** @return a known part */
    public static KeyPart known(long value, String expression, SourceRegion origin) {
        return new KeyPart(Kind.KNOWN, value, expression, origin, null, null);
    }

    /** @return a known part with its named origin and hash (either may be null) */
    public static KeyPart known(long value, String expression, SourceRegion origin, String originName, KeyHash hash) {
        return new KeyPart(Kind.KNOWN, value, expression, origin, originName, hash);
    }

    /** @return an unknown part derived from a hash */
    public static KeyPart hashed(Kind kind, String expression, KeyHash hash) {
        return new KeyPart(kind, null, expression, null, null, hash);
    }

    /** @return a part of the given unknown kind */
    public static KeyPart of(Kind kind, String expression) {
        return new KeyPart(kind, null, expression, null, null, null);
    }

    /** @return true when the value is known */
    public boolean isKnown() {
        return kind == Kind.KNOWN;
    }

    /**
     * @return a canonical text for comparing keys: the value when known, else the expression with
     *     white space removed and lower-cased
     */
    public String canonical() {
        return isKnown()
                ? Long.toString(value)
                : expression.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    }
}
