package io.github.pgadvisorylint.core.keys;

import java.nio.charset.StandardCharsets;

/**
 * A faithful port of PostgreSQL's {@code hash_bytes} and {@code hash_bytes_extended}
 * (src/common/hashfn.c, Bob Jenkins' lookup3 as PostgreSQL adapted it), which back the SQL functions
 * {@code hashtext(text)} and {@code hashtextextended(text, bigint)} for deterministic collations.
 * Computed as on a little-endian server with a UTF-8 database, which is what the test vectors of
 * RULES.md F15 come from.
 */
public final class PostgresHash {

    private PostgresHash() {}

    /**
     * @param text a string, hashed as its UTF-8 bytes
     * @return {@code hashtext(text)}: a 32-bit signed integer, e.g. {@code hashtext('abc') = -785388649}
     */
    public static int hashtext(String text) {
        return (int) hashBytes(text.getBytes(StandardCharsets.UTF_8), 0, false);
    }

    /**
     * @param text a string, hashed as its UTF-8 bytes
     * @param seed the seed argument
     * @return {@code hashtextextended(text, seed)}: a 64-bit signed integer
     */
    public static long hashtextextended(String text, long seed) {
        return hashBytes(text.getBytes(StandardCharsets.UTF_8), seed, true);
    }

    private static long hashBytes(byte[] k, long seed, boolean extended) {
        int len = k.length;
        int[] s = new int[3];
        s[0] = s[1] = s[2] = 0x9e3779b9 + len + 3923095;
        if (extended && seed != 0) {
            s[0] += (int) (seed >>> 32);
            s[1] += (int) seed;
            mix(s);
        }
        int p = 0;
        while (len >= 12) {
            s[0] += word(k, p);
            s[1] += word(k, p + 4);
            s[2] += word(k, p + 8);
            mix(s);
            p += 12;
            len -= 12;
        }
        // the last 11 bytes, little-endian; the lowest byte of c is reserved for the length
        switch (len) {
            case 11:
                s[2] += (k[p + 10] & 0xFF) << 24; // fall through
            case 10:
                s[2] += (k[p + 9] & 0xFF) << 16; // fall through
            case 9:
                s[2] += (k[p + 8] & 0xFF) << 8; // fall through
            case 8:
                s[1] += (k[p + 7] & 0xFF) << 24; // fall through
            case 7:
                s[1] += (k[p + 6] & 0xFF) << 16; // fall through
            case 6:
                s[1] += (k[p + 5] & 0xFF) << 8; // fall through
            case 5:
                s[1] += k[p + 4] & 0xFF; // fall through
            case 4:
                s[0] += (k[p + 3] & 0xFF) << 24; // fall through
            case 3:
                s[0] += (k[p + 2] & 0xFF) << 16; // fall through
            case 2:
                s[0] += (k[p + 1] & 0xFF) << 8; // fall through
            case 1:
                s[0] += k[p] & 0xFF; // fall through
            default:
                break;
        }
        fin(s);
        return extended ? ((long) s[1] << 32) | (s[2] & 0xFFFFFFFFL) : s[2];
    }

    private static int word(byte[] k, int p) {
        return (k[p] & 0xFF) | (k[p + 1] & 0xFF) << 8 | (k[p + 2] & 0xFF) << 16 | (k[p + 3] & 0xFF) << 24;
    }

    private static void mix(int[] s) {
        int a = s[0], b = s[1], c = s[2];
        a -= c;
        a ^= Integer.rotateLeft(c, 4);
        c += b;
        b -= a;
        b ^= Integer.rotateLeft(a, 6);
        a += c;
        c -= b;
        c ^= Integer.rotateLeft(b, 8);
        b += a;
        a -= c;
        a ^= Integer.rotateLeft(c, 16);
        c += b;
        b -= a;
        b ^= Integer.rotateLeft(a, 19);
        a += c;
        c -= b;
        c ^= Integer.rotateLeft(b, 4);
        b += a;
        s[0] = a;
        s[1] = b;
        s[2] = c;
    }

    private static void fin(int[] s) {
        int a = s[0], b = s[1], c = s[2];
        c ^= b;
        c -= Integer.rotateLeft(b, 14);
        a ^= c;
        a -= Integer.rotateLeft(c, 11);
        b ^= a;
        b -= Integer.rotateLeft(a, 25);
        c ^= b;
        c -= Integer.rotateLeft(b, 16);
        a ^= c;
        a -= Integer.rotateLeft(c, 4);
        b ^= a;
        b -= Integer.rotateLeft(a, 14);
        c ^= b;
        c -= Integer.rotateLeft(b, 24);
        s[0] = a;
        s[1] = b;
        s[2] = c;
    }
}
