// Case: a migrator's "process lock" runs pg_advisory_lock and pg_advisory_unlock through a pooled handle, so each lands on whatever connection the pool lends
// Source: https://github.com/remind101/migrate/issues/6
// Kind: bug
// Expected: the session-level lock is taken on a pooled connection that goes straight back to the pool still holding it, and the unlock
//   borrows any connection (returns false, result dropped): the key stays held by an idle pooled session and other runs wait or re-enter it.
package com.example.migrate;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Mutual exclusion for schema migrations across processes, built on a PostgreSQL advisory lock.
 * The key is the CRC32 of a fixed name, so every process computes the same number.
 */
public class MigrationLock {

    private static final String LOCK_NAME = "migrations";

    private final JdbcTemplate jdbc;
    private final long key;

    public MigrationLock(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        CRC32 crc = new CRC32();
        crc.update(LOCK_NAME.getBytes(StandardCharsets.UTF_8));
        this.key = crc.getValue();
    }

    /** Blocks until this process holds the migration lock. */
    public void lock() {
        call("lock");
    }

    /** Gives the migration lock back. */
    public void unlock() {
        call("unlock");
    }

    private void call(String action) {
        String sql = "SELECT pg_advisory_" + action + "(" + key + ")";
        jdbc.execute(sql); // want: unpinned-session-lock|unlock-mismatch
    }
}
