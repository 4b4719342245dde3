package com.example.exports;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.springframework.jdbc.core.JdbcTemplate;

/** A lock across all server replicas on the set of global exports. */
public class GlobalExportsLock {

    static final String GLOBAL_EXPORTS_LOCK_NAMESPACE = "global_exports";

    private static final BigInteger TWO_TO_63 = BigInteger.ONE.shiftLeft(63);

    private final JdbcTemplate jdbc;

    public GlobalExportsLock(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Runs {@code body} holding the advisory lock of the global exports. */
    public void hold(Runnable body) {
        long key = lockId(GLOBAL_EXPORTS_LOCK_NAMESPACE);
        jdbc.query("SELECT pg_advisory_lock(?)", rs -> null, key); // want: lock-without-finally-unlock|unpinned-session-lock|unlock-mismatch
        try {
            body.run();
        } finally {
            jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, key); // may: unlock-mismatch|unpinned-session-lock
        }
    }

    /** SHA-256 of the name, reduced to a non-negative bigint: the same key on every replica. */
    static long lockId(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return new BigInteger(1, digest).mod(TWO_TO_63).longValue();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
