package com.example.wire.migrations;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The schema_migrations ledger, the embedded scripts and their lock keys. */
final class SchemaMigrations {

    private static final String MIGRATIONS_DIR = "db/migrations/";

    private SchemaMigrations() {
    }

    static void createTable(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS schema_migrations (filename text PRIMARY KEY, "
                    + "executed_at timestamptz NOT NULL DEFAULT now())");
        }
    }

    static boolean isApplied(Connection conn, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM schema_migrations WHERE filename = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    static void recordApplied(Connection conn, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO schema_migrations (filename) VALUES (?)")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }

    static String load(String name) throws IOException {
        try (InputStream in = SchemaMigrations.class.getClassLoader().getResourceAsStream(MIGRATIONS_DIR + name)) {
            if (in == null) {
                throw new IOException("Migration script not found: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A stable 64-bit key per script name. */
    static long lockId(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("migration:" + name).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 not available", e);
        }
    }
}
