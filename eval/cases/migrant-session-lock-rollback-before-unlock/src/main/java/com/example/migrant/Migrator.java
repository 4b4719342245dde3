// Case: a migration tool holds one session-level lock for the whole run on its own unpooled connection, applies each migration in its own transaction, and rolls back on every error before anything else (the unlock included) runs on that session
// Source: https://github.com/jaemk/migrant/pull/23
// Kind: correct
// Expected: correct: lock and unlock run on one dedicated session in autocommit; each migration commits before the unlock; a failed statement is
//   rolled back first, so the unlock in finally does not hit an aborted transaction (F18); a reconnect, which loses the lock, stops the run.
package com.example.migrant;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class Migrator {

    private static final Logger log = LoggerFactory.getLogger(Migrator.class);

    public record Migration(String tag, String upSql) {
    }

    private final PgSession session;
    private final boolean force;

    public Migrator(PgSession session, boolean force) {
        this.session = session;
        this.force = force;
    }

    public int applyAll(List<Migration> migrations) throws SQLException {
        session.acquireLock();
        long generation = session.generation();
        try {
            session.setupMigrationTable();
            // read after the lock: a run that waited sees the migrations its peer committed
            Set<String> applied = session.appliedTags();
            int count = 0;
            for (Migration m : migrations) {
                if (applied.contains(m.tag())) {
                    continue;
                }
                if (session.generation() != generation) {
                    throw new SQLException("connection was re-established: the migration lock is no longer held");
                }
                try {
                    session.begin();
                    session.executeBatch(m.upSql());
                    session.insertTag(m.tag());
                    session.commit();
                    count++;
                } catch (SQLException e) {
                    session.rollback();
                    if (!force) {
                        throw e;
                    }
                    log.warn("migration {} failed, continuing (force): {}", m.tag(), e.getMessage());
                }
            }
            return count;
        } finally {
            session.releaseLockQuietly();
        }
    }
}
