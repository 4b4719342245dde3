// Case: Flight Control serializes the re-encryption of one (kind, organization) across worker replicas with a session try-lock on a connection held for the lease; review showed the first version's (namespace, 32-bit FNV hash) key let ~300k kind/org pairs collide and silently stall an org's migration, and the merged code spreads a 64-bit FNV-1a hash over both int keys.
// Source: https://github.com/flightctl/flightctl/pull/3285
// Kind: correct
// Expected: correct: both int keys come from one 64-bit hash (namespace folded into the high half), the try-lock result is checked, the lease keeps its own connection so the unlock runs on the session that locked, the unlock result is checked, and a connection whose unlock did not succeed is evicted from the pool instead of going back with the lock (F13).
package com.example.encryption;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** One lease per kind/org at a time across all worker replicas. */
public class EncryptionMigrationLocker {

    /** "ECMG": keeps these keys apart from the application's other two-int locks. */
    static final int LOCK_NAMESPACE = 0x45434d47;

    private static final long FNV64_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV64_PRIME = 0x100000001b3L;

    private final HikariDataSource dataSource;

    public EncryptionMigrationLocker(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The held lease, or empty when another worker holds it. Close the lease to release it. */
    public Optional<Lease> tryLock(String leaseKey) throws SQLException {
        int[] keys = advisoryKeys(leaseKey);
        Connection conn = dataSource.getConnection();
        boolean acquired = false;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
            ps.setInt(1, keys[0]);
            ps.setInt(2, keys[1]);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } finally {
            if (!acquired) {
                conn.close();
            }
        }
        return acquired ? Optional.of(new Lease(conn, keys, leaseKey)) : Optional.empty();
    }

    /** FNV-1a 64 of the key; the two 32-bit halves become the two int keys. */
    static int[] advisoryKeys(String leaseKey) {
        long h = FNV64_OFFSET;
        for (byte b : leaseKey.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= FNV64_PRIME;
        }
        return new int[] {LOCK_NAMESPACE ^ (int) (h >>> 32), (int) h};
    }

    public final class Lease implements AutoCloseable {
        private final Connection conn;
        private final int[] keys;
        private final String leaseKey;

        private Lease(Connection conn, int[] keys, String leaseKey) {
            this.conn = conn;
            this.keys = keys;
            this.leaseKey = leaseKey;
        }

        @Override
        public void close() throws SQLException {
            boolean released = false;
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
                ps.setQueryTimeout(5);
                ps.setInt(1, keys[0]);
                ps.setInt(2, keys[1]);
                try (ResultSet rs = ps.executeQuery()) {
                    released = rs.next() && rs.getBoolean(1);
                }
                if (!released) {
                    throw new SQLException("unlock of lease " + leaseKey + " returned false");
                }
            } finally {
                if (released) {
                    conn.close();
                } else {
                    dataSource.evictConnection(conn);     // ends the session, and the lock with it
                }
            }
        }
    }
}
