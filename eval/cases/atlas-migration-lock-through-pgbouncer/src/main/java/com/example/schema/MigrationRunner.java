// Case: Atlas guarded its migrations with a session-level advisory lock on the same connection string the application used, which went through PgBouncer in transaction pooling mode; after a successful migration the release sometimes failed ("failed releasing lock 2686470616"), because the unlock ran on another server connection than the lock.
// Source: https://github.com/ariga/atlas/pull/2447
// Kind: bug
// Expected: the runner itself looks fine (lock, migrate, unlock in finally, one JDBC connection), but the DataSource it is given (SchemaDataSourceConfig, application.properties) points at PgBouncer on port 6432, whose pgbouncer.ini sets pool_mode = transaction. In autocommit every statement is its own transaction, so PgBouncer may run the lock, each migration and the unlock on different server connections: the lock stays on a server connection other clients are multiplexed onto, a second migrator can be handed that connection and "take" the key by re-entrancy, and the unlock returns false with a WARNING on another backend (F10). Connect the migrator directly to PostgreSQL, or take pg_advisory_xact_lock inside one transaction around the migrations.
package com.example.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

@Component
public class MigrationRunner {

    /** The key from the report: one per revision table. */
    private static final long MIGRATE_LOCK_ID = 2_686_470_616L;

    private final DataSource dataSource;

    public MigrationRunner(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public void migrate(List<String> pendingStatements) throws SQLException {
        try (Connection conn = dataSource.getConnection(); Statement st = conn.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + MIGRATE_LOCK_ID + ")"); // want: session-lock-under-transaction-pooling
            try {
                for (String sql : pendingStatements) {
                    st.execute(sql);
                }
                st.executeUpdate("INSERT INTO atlas_schema_revisions(applied_at) VALUES (now())");
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + MIGRATE_LOCK_ID + ")"); // want: session-lock-under-transaction-pooling
            }
        }
    }
}
