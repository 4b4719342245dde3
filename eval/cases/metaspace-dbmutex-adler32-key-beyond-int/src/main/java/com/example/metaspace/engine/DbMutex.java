// Case: METASPACE's database mutex hashed each resource name with Adler-32 and used the checksum as the second key of a two-int pg_advisory_lock; Adler-32 is an unsigned 32-bit value, so any name whose checksum passed 2^31-1 could not be locked at all, and the checksum's narrow spread made unrelated datasets wait for each other.
// Source: https://github.com/metaspace2020/metaspace/pull/1034
// Kind: bug
// Expected: Adler32.getValue() is a long in 0..4294967295; the second part of pg_advisory_lock(int, int) must be an int, and the CAST(? AS integer) in the lock statement raises "integer out of range" (SQLSTATE 22003) for every name whose checksum is above 2147483647, so that name's lock is never taken and its sync fails every time (the unlock has the same cast but is only reached after a successful lock). Adler-32 of short ASCII names also fills a small part of its range, so different dataset ids share a key and one sync waits for another dataset's; the two-int form with a namespace is the right shape for a 32-bit hash, the hash is the wrong one. Use a signed 32-bit slice of a real digest (SHA-256) bound with setInt.
package com.example.metaspace.engine;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.zip.Adler32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Database-backed mutex that keeps engine processes (annotation workers, the update daemon, the API)
 * off the same shared resource at once. Resources are named by strings, hashed into the second half of
 * a two-int advisory-lock key under one namespace for the whole engine.
 */
public class DbMutex {

    private static final Logger log = LoggerFactory.getLogger(DbMutex.class);

    static final int LOCK_NAMESPACE = 894951;

    private final String jdbcUrl;
    private final Properties credentials;

    public DbMutex(String jdbcUrl, Properties credentials) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
    }

    /**
     * Runs work while holding the lock of resourceName, waiting at most timeout for it. The lock lives on a
     * connection of its own, opened here and closed on the way out, so the session (and with it the lock)
     * ends even when work throws.
     */
    public <T> T withLock(String resourceName, Duration timeout, Callable<T> work) throws Exception {
        long resourceHash = resourceHash(resourceName);
        try (Connection conn = DriverManager.getConnection(jdbcUrl, credentials)) {
            try (Statement st = conn.createStatement()) {
                st.execute("SET statement_timeout = " + timeout.toMillis());
            }
            // setLong binds a bigint and there is no pg_advisory_lock(integer, bigint): cast it down to the int the key needs
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?, CAST(? AS integer))")) { // want: lock-key-out-of-range // may: weak-lock-key-hash
                lock.setInt(1, LOCK_NAMESPACE);
                lock.setLong(2, resourceHash);
                lock.execute();
            }
            log.debug("Locked {} ({}, {})", resourceName, LOCK_NAMESPACE, resourceHash);
            T result = work.call();
            try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?, CAST(? AS integer))")) { // may: lock-key-out-of-range
                unlock.setInt(1, LOCK_NAMESPACE);
                unlock.setLong(2, resourceHash);
                unlock.execute();
            }
            return result;
        } catch (SQLException e) {
            log.warn("Lock on {} failed: {}", resourceName, e.getMessage());
            throw e;
        }
    }

    /** A 32-bit checksum of the name; Adler-32 is fast and stable across processes and releases. */
    static long resourceHash(String resourceName) {
        Adler32 adler = new Adler32();
        adler.update(resourceName.getBytes(StandardCharsets.UTF_8));
        return adler.getValue();
    }
}
