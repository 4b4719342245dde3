// Case: khora's fix for its namespace-scoped entity upsert lock: pg_advisory_xact_lock takes both int halves from the namespace UUID, each the XOR-fold of one 64-bit half, so the two-int key carries 64 bits of the UUID instead of 32.
// Source: https://github.com/DeytaHQ/khora/pull/741
// Kind: correct
// Expected: nothing to report. The two-int form is one 64-bit lock id inside PostgreSQL; namespaceLockKeys fills both halves from the UUID (the high 64 bits folded into the first int, the low 64 bits into the second), so two of n random namespaces share a key with probability about n^2/2^65, negligible at billions of namespaces. Both halves are Java ints bound with setInt, within int range (F20). The lock is transaction-level, taken first in the upsert transaction on the connection that does the work (autocommit off), released by the commit or the rollback, including before each deadlock retry; the work under it touches only that namespace's rows, and one key per transaction means no lock-order cycle between upserts.
package com.example.memory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entity rows of the memory graph, kept in PostgreSQL next to their pgvector embeddings. */
public class PgEntityStore {

    /** One entity of a namespace's memory graph; the embedding is in pgvector's text form, "[0.12,-0.5,...]". */
    public record StoredEntity(UUID id, UUID namespaceId, String name, String entityType, String description,
                               int mentionCount, String embedding, Timestamp updatedAt) {
    }

    private static final int MAX_DEADLOCK_ATTEMPTS = 3;
    private static final int BATCH_SIZE = 200;
    private static final String UPSERT =
            "INSERT INTO entities (id, namespace_id, name, entity_type, description, mention_count, embedding, updated_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?::vector, ?) "
                    + "ON CONFLICT ON CONSTRAINT uq_entities_namespace_name_type DO UPDATE SET "
                    + "description = EXCLUDED.description, mention_count = EXCLUDED.mention_count, "
                    + "embedding = EXCLUDED.embedding, updated_at = EXCLUDED.updated_at";

    private static final Logger log = LoggerFactory.getLogger(PgEntityStore.class);

    private final DataSource dataSource;

    public PgEntityStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Upserts a namespace's entities in one transaction, serialised against other upserts of that namespace. */
    public void upsertEntities(UUID namespaceId, List<StoredEntity> entities) throws SQLException {
        if (entities.isEmpty()) {
            return;
        }
        List<StoredEntity> sorted = entities.stream()
                .sorted(Comparator.comparing(StoredEntity::name).thenComparing(StoredEntity::entityType))
                .toList();
        for (int attempt = 1; ; attempt++) {
            try (Connection conn = dataSource.getConnection()) {
                conn.setAutoCommit(false);
                try {
                    lockNamespace(conn, namespaceId);
                    for (int start = 0; start < sorted.size(); start += BATCH_SIZE) {
                        upsertBatch(conn, sorted.subList(start, Math.min(start + BATCH_SIZE, sorted.size())));
                    }
                    conn.commit();
                    return;
                } catch (SQLException | RuntimeException e) {
                    conn.rollback();
                    throw e;
                }
            } catch (SQLException e) {
                if (!"40P01".equals(e.getSQLState()) || attempt >= MAX_DEADLOCK_ATTEMPTS) {
                    throw e;
                }
                log.warn("Retrying entity upsert after deadlock (attempt {})", attempt, e);
                sleepQuietly(100L << (attempt - 1));
            }
        }
    }

    private void lockNamespace(Connection conn, UUID namespaceId) throws SQLException {
        int[] keys = namespaceLockKeys(namespaceId);
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
            ps.setInt(1, keys[0]);
            ps.setInt(2, keys[1]);
            ps.execute();
        }
    }

    /**
     * A stable (int, int) key per namespace. PostgreSQL treats the pair as one 64-bit lock id, so each half
     * carries one 64-bit half of the UUID, folded to 32 bits: every bit of the UUID feeds the key.
     */
    static int[] namespaceLockKeys(UUID namespaceId) {
        long msb = namespaceId.getMostSignificantBits();
        long lsb = namespaceId.getLeastSignificantBits();
        return new int[] {(int) (msb ^ (msb >>> 32)), (int) (lsb ^ (lsb >>> 32))};
    }

    private void upsertBatch(Connection conn, List<StoredEntity> batch) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(UPSERT)) {
            for (StoredEntity e : batch) {
                ps.setObject(1, e.id());
                ps.setObject(2, e.namespaceId());
                ps.setString(3, e.name());
                ps.setString(4, e.entityType());
                ps.setString(5, e.description());
                ps.setInt(6, e.mentionCount());
                ps.setString(7, e.embedding());
                ps.setTimestamp(8, e.updatedAt());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
