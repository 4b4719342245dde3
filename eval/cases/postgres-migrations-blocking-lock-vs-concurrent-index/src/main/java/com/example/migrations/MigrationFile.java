package com.example.migrations;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/** One numbered migration file: "<id>_<name>.sql", ids consecutive from 1. */
public record MigrationFile(int id, String name, String fileName, String sql, String hash) {

    static List<MigrationFile> loadAll(String directory) throws IOException {
        Resource[] resources = new PathMatchingResourcePatternResolver().getResources("classpath:" + directory + "/*.sql");
        List<MigrationFile> files = new ArrayList<>();
        for (Resource resource : resources) {
            files.add(load(resource));
        }
        files.sort(Comparator.comparingInt(MigrationFile::id));
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).id() != i + 1) {
                throw new IllegalStateException("Found a non-consecutive migration ID: " + files.get(i).fileName());
            }
        }
        return files;
    }

    /** id to hash of every migration the database has recorded; creates the table on a new database. */
    static Map<Integer, String> appliedHashes(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS migrations (id integer PRIMARY KEY, name varchar(100) UNIQUE NOT NULL, "
                    + "hash varchar(40) NOT NULL, executed_at timestamp DEFAULT current_timestamp)");
        }
        Map<Integer, String> applied = new HashMap<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT id, hash FROM migrations")) {
            while (rs.next()) {
                applied.put(rs.getInt(1), rs.getString(2));
            }
        }
        return applied;
    }

    private static MigrationFile load(Resource resource) throws IOException {
        String fileName = resource.getFilename();
        int separator = fileName.indexOf('_');
        if (separator < 1 || !fileName.endsWith(".sql")) {
            throw new IllegalStateException("Invalid migration file name: " + fileName);
        }
        int id = Integer.parseInt(fileName.substring(0, separator));
        String name = fileName.substring(separator + 1, fileName.length() - ".sql".length());
        String sql;
        try (InputStream in = resource.getInputStream()) {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new MigrationFile(id, name, fileName, sql, sha1(fileName + sql));
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
