package com.example.migrate;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** Applies pending migrations, one transaction per migration, while holding the migration lock. */
public class Migrator {

    public record Migration(int version, String upSql) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final MigrationLock lock;

    public Migrator(JdbcTemplate jdbc, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.lock = new MigrationLock(jdbc);
    }

    public int up(List<Migration> migrations) {
        lock.lock(); // may: unpinned-session-lock|lock-without-finally-unlock|unlock-mismatch
        try {
            jdbc.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY NOT NULL)");
            Set<Integer> applied = new HashSet<>(
                    jdbc.queryForList("SELECT version FROM schema_migrations", Integer.class));
            int count = 0;
            for (Migration m : migrations.stream().sorted(Comparator.comparingInt(Migration::version)).toList()) {
                if (applied.contains(m.version())) {
                    continue;
                }
                tx.executeWithoutResult(status -> {
                    jdbc.execute(m.upSql());
                    jdbc.update("INSERT INTO schema_migrations (version) VALUES (?)", m.version());
                });
                count++;
            }
            return count;
        } finally {
            lock.unlock();
        }
    }
}
