// Case: Yii's PgsqlMutex turned a mutex name into the two keys of pg_try_advisory_lock(int, int) from only 4 bytes of its SHA-1 (two unsigned 16-bit values, a 32-bit key space); the fix takes 8 bytes as two signed 32-bit ints, the full 64-bit space of the two-key form.
// Source: https://github.com/yiisoft/yii2/pull/21072
// Kind: correct
// Expected: correct: both keys are signed ints read from the first 8 bytes of SHA-1(name), so they are always in int range and distinct names collide only with ~2^-64 probability; acquire polls the try-lock and stops at the first success, release unlocks the same two keys on the same connection, and the caller unlocks in finally.
package com.example.mutex;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Named mutex over PostgreSQL advisory locks, held by the session of one worker's own connection. */
public class PgsqlMutex {

    private static final long RETRY_DELAY_MILLIS = 50;

    private final Connection conn;   // opened with DriverManager by the worker process and kept for its lifetime

    public PgsqlMutex(Connection conn) {
        this.conn = conn;
    }

    /** The two int keys of a name: bytes 0-3 and 4-7 of its SHA-1, big-endian, signed. */
    static int[] keysOf(String name) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(name.getBytes(StandardCharsets.UTF_8));
            ByteBuffer buf = ByteBuffer.wrap(sha1);
            return new int[] {buf.getInt(0), buf.getInt(4)};
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when the mutex is held within the timeout; the caller must then call {@link #release}. */
    public boolean acquire(String name, long timeoutMillis) throws SQLException, InterruptedException {
        int[] keys = keysOf(name);
        long deadline = System.currentTimeMillis() + timeoutMillis;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
            ps.setInt(1, keys[0]);
            ps.setInt(2, keys[1]);
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return true;
                    }
                }
                if (System.currentTimeMillis() >= deadline) {
                    return false;
                }
                Thread.sleep(RETRY_DELAY_MILLIS);
            }
        }
    }

    public boolean release(String name) throws SQLException {
        int[] keys = keysOf(name);
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
            ps.setInt(1, keys[0]);
            ps.setInt(2, keys[1]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
