// Case: METASPACE's fix for its database mutex: the resource name is hashed with SHA-256 and the first four bytes of the digest, read as a signed int, become the second key of the two-int advisory lock, so every name maps to a valid key and names spread over the whole int range.
// Source: https://github.com/metaspace2020/metaspace/pull/1034
// Kind: correct
// Expected: nothing to report. The key is (constant namespace, signed 32-bit slice of SHA-256), both parts ints bound with setInt, identical at the lock and the unlock. A 32-bit hash in the second part of the two-int form under a namespace is the shape that fits it; only names locked by this mutex share the namespace. The blocking lock is bounded by statement_timeout and taken on a connection opened for it alone: when work throws and the unlock is skipped, closing that connection ends the session and PostgreSQL drops the lock.
package com.example.metaspace.engine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
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
        int resourceHash = resourceHash(resourceName);
        try (Connection conn = DriverManager.getConnection(jdbcUrl, credentials)) {
            try (Statement st = conn.createStatement()) {
                st.execute("SET statement_timeout = " + timeout.toMillis());
            }
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
                lock.setInt(1, LOCK_NAMESPACE);
                lock.setInt(2, resourceHash);
                lock.execute();
            }
            log.debug("Locked {} ({}, {})", resourceName, LOCK_NAMESPACE, resourceHash);
            T result = work.call();
            try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
                unlock.setInt(1, LOCK_NAMESPACE);
                unlock.setInt(2, resourceHash);
                unlock.execute();
            }
            return result;
        } catch (SQLException e) {
            log.warn("Lock on {} failed: {}", resourceName, e.getMessage());
            throw e;
        }
    }

    /** PostgreSQL needs a valid 32-bit signed integer here: the first four digest bytes, big-endian. */
    static int resourceHash(String resourceName) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(resourceName.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, 4).getInt();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
