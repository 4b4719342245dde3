// Case: Nango serialized the ClickHouse migrations its pods run at start-up with a session-level pg_try_advisory_lock in its main PostgreSQL database, polled for up to 30 s and released in a finally with pg_advisory_unlock, but both statements went through the shared connection pool, which runs each query on whatever connection is free and takes it back at once.
// Source: https://github.com/NangoHQ/nango/pull/7394
// Kind: bug
// Expected: acquireAdvisoryLock runs pg_try_advisory_lock through the JdbcTemplate, outside any transaction: the template borrows a pooled connection for that one statement and gives it back, so the lock stays on an idle pooled session (F1, F13) that any other thread of the service may borrow for its own queries while the ClickHouse migrations run. releaseAdvisoryLock's pg_advisory_unlock then runs on whatever connection the pool hands out: the locking one only if it happens to be free (Hikari favours the connection this thread used last), otherwise another one, where it returns false with a WARNING (you don't own a lock) and the key stays held by an idle pooled session. Another pod's migrate() for that database then polls 30 s and fails for as long as this pod lives: the deploy stalls although no migration runs. The key, a 32-bit hash of the name (the original's hashToInt), is debatable at most: two ClickHouse databases use it. Lock, migrate and unlock on one connection held for the whole run (or a transaction-level lock in a transaction that spans it).
package com.example.nango.clickhouse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class ClickHouseMigrator {

    private static final Logger log = LoggerFactory.getLogger(ClickHouseMigrator.class);
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration LOCK_POLL = Duration.ofMillis(100);

    private final JdbcTemplate postgres;     // Nango's main database, through the shared Hikari pool (max 30)
    private final DataSource clickhouse;

    public ClickHouseMigrator(JdbcTemplate postgres, @Qualifier("clickhouseDataSource") DataSource clickhouse) {
        this.postgres = postgres;
        this.clickhouse = clickhouse;
    }

    /** Applies the pending .sql files of migrationsDir to the ClickHouse database, one pod at a time. */
    public void migrate(String database, Path migrationsDir) throws SQLException, IOException, InterruptedException {
        long lockKey = ("clickhouse_migration_" + database).hashCode();   // one lock per ClickHouse database
        if (!acquireAdvisoryLock(lockKey)) {
            throw new IllegalStateException("could not acquire advisory lock for ClickHouse migrations of " + database);
        }
        try (Connection ch = clickhouse.getConnection()) {
            try (Statement st = ch.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS " + database + ".migrations (name String, applied_at DateTime DEFAULT now()) "
                        + "ENGINE = ReplacingMergeTree ORDER BY name");
            }
            Set<String> applied = new HashSet<>();
            try (Statement st = ch.createStatement();
                 ResultSet rs = st.executeQuery("SELECT name FROM " + database + ".migrations FINAL")) {
                while (rs.next()) {
                    applied.add(rs.getString(1));
                }
            }
            for (Path file : pendingFiles(migrationsDir, applied)) {
                log.info("applying ClickHouse migration {} to {}", file.getFileName(), database);
                try (Statement st = ch.createStatement()) {
                    st.execute(Files.readString(file));
                }
                try (PreparedStatement ps = ch.prepareStatement("INSERT INTO " + database + ".migrations (name) VALUES (?)")) {
                    ps.setString(1, file.getFileName().toString());
                    ps.executeUpdate();
                }
            }
        } finally {
            releaseAdvisoryLock(lockKey);
        }
    }

    private boolean acquireAdvisoryLock(long lockKey) throws InterruptedException {
        long deadline = System.nanoTime() + LOCK_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Boolean acquired = postgres.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, lockKey); // want: unpinned-session-lock // may: lock-without-finally-unlock|weak-lock-key-hash
            if (Boolean.TRUE.equals(acquired)) {
                log.info("acquired advisory lock {}", lockKey);
                return true;
            }
            Thread.sleep(LOCK_POLL.toMillis());
        }
        return false;
    }

    private void releaseAdvisoryLock(long lockKey) {
        Boolean released = postgres.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, lockKey); // may: unpinned-session-lock|unlock-mismatch
        if (!Boolean.TRUE.equals(released)) {
            log.warn("advisory lock {} was not held when releasing it", lockKey);
        }
    }

    private static List<Path> pendingFiles(Path dir, Set<String> applied) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".sql"))
                    .filter(f -> !applied.contains(f.getFileName().toString()))
                    .sorted()
                    .toList();
        }
    }
}
