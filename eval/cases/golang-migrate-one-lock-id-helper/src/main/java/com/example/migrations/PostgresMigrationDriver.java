// Case: the golang-migrate fix for the leaked migration lock: Lock() and Unlock() both derive the advisory lock id from the database and schema names, on the driver's one dedicated connection.
// Source: https://github.com/golang-migrate/migrate/issues/130
// Kind: correct
// Expected: nothing to report: lock and unlock use the same key on the same connection and the caller unlocks in finally; the CRC32-based key only ever sees a handful of database/schema names, and waiting for another migrator is the intended behaviour.
package com.example.migrations;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.zip.CRC32;

public class PostgresMigrationDriver implements AutoCloseable {

    private static final long LOCK_SALT = 1486364155L;

    private final Connection conn;          // one dedicated connection for the driver's lifetime
    private final String databaseName;
    private final String schemaName;

    public PostgresMigrationDriver(Connection conn, String databaseName, String schemaName) {
        this.conn = conn;
        this.databaseName = databaseName;
        this.schemaName = schemaName;
    }

    static long advisoryLockId(String databaseName, String... extraNames) {
        StringBuilder name = new StringBuilder(databaseName);
        for (String extra : extraNames) {
            name.append('\0').append(extra);
        }
        CRC32 crc = new CRC32();
        crc.update(name.toString().getBytes(StandardCharsets.UTF_8));
        return (crc.getValue() * LOCK_SALT) & 0xFFFFFFFFL;
    }

    private long lockId() {
        return advisoryLockId(databaseName, schemaName);
    }

    public void lock() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // may: weak-lock-key-hash|blocking-lock-without-timeout
            ps.setLong(1, lockId());
            ps.execute();
        }
    }

    public void unlock() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // may: try-lock-result-ignored
            ps.setLong(1, lockId());
            ps.execute();
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
