package com.example.adregistry.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the migration scripts listed in {@code db/migrations/index.txt} from the classpath, in version order. */
public class ScriptLoader {

    /** One {@code NNN_name.sql} script: applied in a transaction of its own, together with its history row. */
    public record Migration(int version, String filename, String sql) {
    }

    private static final Pattern FILENAME = Pattern.compile("^(\\d+)_(.+)\\.sql$");
    private static final String DIRECTORY = "db/migrations/";

    private final ClassLoader classLoader;

    public ScriptLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    public List<Migration> load() throws IOException {
        List<Migration> migrations = new ArrayList<>();
        Map<Integer, String> seen = new HashMap<>();
        for (String filename : index()) {
            Matcher m = FILENAME.matcher(filename);
            if (!m.matches()) {
                throw new IllegalStateException("Invalid migration filename " + filename + ", expected NNN_name.sql");
            }
            int version = Integer.parseInt(m.group(1));
            String previous = seen.put(version, filename);
            if (previous != null) {
                throw new IllegalStateException("Duplicate migration version " + version + ": " + previous + ", " + filename);
            }
            migrations.add(new Migration(version, filename, read(DIRECTORY + filename)));
        }
        migrations.sort(Comparator.comparingInt(Migration::version));
        return migrations;
    }

    private List<String> index() throws IOException {
        return read(DIRECTORY + "index.txt").lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    private String read(String resource) throws IOException {
        try (InputStream in = classLoader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("Missing classpath resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
