// Case: typie serialized its canvas-sync job with pg_advisory_xact_lock(rapidhash(canvasId)); the hash is an unsigned 64-bit number, so for about half of all canvases the key was above the bigint range and the lock statement failed ("pg_advisory_xact_lock range bug" fix).
// Source: https://github.com/penxle/typie/pull/1638
// Kind: bug
// Expected: the key is an unsigned 64-bit value (0 .. 2^64-1) written into the SQL text; whenever it exceeds 9223372036854775807 the literal is numeric, no pg_advisory_xact_lock(numeric) exists, and the sync of that canvas fails every time; keep the 64 hash bits as a signed long (ByteBuffer.getLong) and bind it as a parameter.
package com.example.canvas;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

public final class CanvasLockKeys {

    private CanvasLockKeys() {
    }

    /** A "positive" 64-bit key per canvas: the first 8 bytes of SHA-256, read as an unsigned number. */
    public static BigInteger syncKey(String canvasId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("canvas-sync:" + canvasId).getBytes(StandardCharsets.UTF_8));
            return new BigInteger(1, Arrays.copyOf(digest, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
