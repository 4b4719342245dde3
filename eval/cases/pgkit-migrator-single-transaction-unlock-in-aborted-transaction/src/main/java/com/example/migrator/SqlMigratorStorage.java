package com.example.migrator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.sql.DataSource;

/** The migration table, the migration files on disk and the advisory-lock key of one migrator. */
final class SqlMigratorStorage {

    private final DataSource pool;
    private final Path migrationsPath;
    private final String migrationTable;

    SqlMigratorStorage(DataSource pool, Path migrationsPath, String migrationTable) {
        this.pool = pool;
        this.migrationsPath = migrationsPath;
        this.migrationTable = migrationTable;
    }

    void ensureTable() throws SQLException {
        try (Connection conn = pool.getConnection(); Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + migrationTable
                    + " (name text PRIMARY KEY, hash text NOT NULL, date timestamptz NOT NULL DEFAULT now())");
        }
    }

    /** Names already recorded, read through the pool (committed rows only). */
    Set<String> executedNames() throws SQLException {
        Set<String> names = new HashSet<>();
        try (Connection conn = pool.getConnection(); Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM " + migrationTable)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /** Records a migration on the connection that ran it, inside its transaction when there is one. */
    void logMigration(Connection conn, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + migrationTable + " (name, hash) VALUES (?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, name);
            ps.executeUpdate();
        }
    }

    List<Path> migrationFiles() throws IOException {
        try (Stream<Path> files = Files.list(migrationsPath)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".sql")).sorted().toList();
        }
    }

    /** One key per migration table: the first 32 bits of an MD5 of its name. */
    long advisoryLockId() {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5")
                    .digest(("slonik-migrator advisory lock:" + migrationTable).getBytes(StandardCharsets.UTF_8));
            return Long.parseLong(HexFormat.of().formatHex(md5, 0, 4), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 not available", e);
        }
    }
}
