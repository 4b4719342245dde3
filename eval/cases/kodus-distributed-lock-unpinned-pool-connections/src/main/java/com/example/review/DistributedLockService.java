// Case: kodus-ai's DistributedLockService took and released session-level advisory locks through the data source's query method, which runs each call on whichever pooled connection is free, so the try-lock and the unlock land on different sessions: the unlock releases nothing and the lock stays on an idle pooled connection, whose next borrower can take the same lock again by re-entrancy.
// Source: https://github.com/kodustech/kodus-ai/pull/1129
// Kind: bug
// Expected: acquire() and release() each run through JdbcTemplate outside any transaction, so each borrows its own connection from the pool and returns it right after the statement. The pg_try_advisory_lock is held by the session of the connection acquire() used, which goes back to the pool still holding it (F1, F13); release() runs pg_advisory_unlock on whatever connection it gets, usually another session, where it returns false with a WARNING and the lock stays held by an idle pooled session. Every later acquire() of that name fails until the pool retires the connection, except one that is handed that very session, which succeeds by re-entrancy (F4) while another caller still believes it holds the lock: two sync jobs run at once. Pin one connection per lock object for both calls.
package com.example.review;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/** Cluster-wide mutual exclusion for the platform's periodic jobs, on PostgreSQL advisory locks. */
@Service
public class DistributedLockService {

    private static final Logger log = LoggerFactory.getLogger(DistributedLockService.class);

    private final JdbcTemplate jdbc;

    public DistributedLockService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public DistributedLock createLock(String name) {
        return new DistributedLock(name, keyFor(name));
    }

    /** First eight bytes of a SHA-256 of the lock name: one 64-bit advisory key per name. */
    static long keyFor(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    public final class DistributedLock {

        private final String name;
        private final long key;

        private DistributedLock(String name, long key) {
            this.name = name;
            this.key = key;
        }

        /** True when this caller now holds the lock; false when another instance does. */
        public boolean acquire() {
            Boolean acquired = jdbc.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, key); // want: unpinned-session-lock // may: lock-without-finally-unlock
            log.debug("Lock {} acquired: {}", name, acquired);
            return Boolean.TRUE.equals(acquired);
        }

        public void release() {
            Boolean released = jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, key); // want: unlock-mismatch|unpinned-session-lock
            if (!Boolean.TRUE.equals(released)) {
                log.warn("Lock {} was not held when released", name);
            }
        }

        public String name() {
            return name;
        }
    }
}
