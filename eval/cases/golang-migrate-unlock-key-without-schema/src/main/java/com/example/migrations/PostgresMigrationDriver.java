// Case: golang-migrate's Postgres driver started deriving the lock id from database + schema in Lock() but Unlock() still derived it from the database name alone, so the migration lock was never released ("can't acquire database lock" on the next instance).
// Source: https://github.com/golang-migrate/migrate/issues/130
// Kind: bug
// Expected: unlock() releases a different key from the one lock() took: pg_advisory_unlock returns false with a warning and the real lock stays on the driver's connection until it closes, blocking every other migrator; both calls must use one key.
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

    public void lock() throws SQLException {
        long id = advisoryLockId(databaseName, schemaName);
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // may: weak-lock-key-hash|blocking-lock-without-timeout
            ps.setLong(1, id);
            ps.execute();
        }
    }

    public void unlock() throws SQLException {
        long id = advisoryLockId(databaseName);
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: unlock-mismatch
            ps.setLong(1, id);
            ps.execute();
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
