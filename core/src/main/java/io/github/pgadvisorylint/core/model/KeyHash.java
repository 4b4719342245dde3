package io.github.pgadvisorylint.core.model;

import java.util.Objects;

/**
 * A key part derived from a hash: which hash, of what, and how wide (RULES.md weak-lock-key-hash;
 * F15 for {@code hashtext}).
 *
 * @param function   the hash function
 * @param input      the hashed string when it is a compile-time constant, else null
 * @param population how many distinct inputs the code suggests at run time; {@link KeyPopulation#UNKNOWN}
 *                   when nothing says, and for a constant input
 */
public record KeyHash(Function function, String input, KeyPopulation population) {

    /** Checks that the population is set. */
    public KeyHash {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(population, "population");
    }

    /**
     * A hash whose inputs' population is not known.
     *
     * @param function the hash function
     * @param input    the hashed string when it is a compile-time constant, else null
     */
    public KeyHash(Function function, String input) {
        this(function, input, KeyPopulation.UNKNOWN);
    }

    /** @return this hash with the population replaced */
    public KeyHash withPopulation(KeyPopulation p) {
        return new KeyHash(function, input, p);
    }

    /** Hash functions seen in lock keys. */
    public enum Function {
        /** PostgreSQL {@code hashtext(text)}: 32-bit, internal, undocumented. */
        HASHTEXT(32, false),
        /** PostgreSQL {@code hashtextextended(text, seed)}: 64-bit (PostgreSQL 11+). */
        HASHTEXTEXTENDED(64, false),
        /** Java {@code String.hashCode()}: 32-bit. */
        STRING_HASHCODE(32, false),
        /** {@code java.util.zip.CRC32}: 32-bit. */
        CRC32(32, false),
        /** {@code java.util.zip.Adler32}: 32-bit. */
        ADLER32(32, false),
        /** {@code UUID.hashCode()}: 32-bit fold of 128 bits. */
        UUID_HASHCODE(32, false),
        /** {@code Objects.hash(...)} / {@code Arrays.hashCode(...)}: 32-bit. */
        OBJECTS_HASH(32, false),
        /** {@code hashCode()} of an object whose class the tool cannot see: 32-bit. */
        HASHCODE(32, false),
        /** {@code Object.hashCode()} of a class that does not override it, an enum's {@code hashCode()}, {@code System.identityHashCode}: differs between JVM runs. */
        IDENTITY_HASHCODE(32, true);

        private final int bits;
        private final boolean identityBased;

        Function(int bits, boolean identityBased) {
            this.bits = bits;
            this.identityBased = identityBased;
        }

        /** @return the width of the hash in bits */
        public int bits() {
            return bits;
        }

        /** @return true when the value differs between JVM runs, so it never excludes across processes */
        public boolean identityBased() {
            return identityBased;
        }
    }
}
