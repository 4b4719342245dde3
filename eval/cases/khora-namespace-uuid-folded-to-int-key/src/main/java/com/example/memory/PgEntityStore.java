// Case: khora serialises concurrent entity upserts of one namespace with pg_advisory_xact_lock(KHOR, key2), where key2 folds the namespace's 128-bit UUID into one 32-bit int by XOR-ing its four 32-bit words, so with per-user or per-agent namespaces unrelated namespaces share a lock.
// Source: https://github.com/DeytaHQ/khora/issues/738
// Kind: bug
// Expected: lockNamespace takes pg_advisory_xact_lock(ENTITY_UPSERT_LOCK_KEY1, namespaceLockKey(id)) inside the upsert transaction, which is right for scope (released at commit or rollback), but the key has only 32 bits of entropy: the first int is a constant, and namespaceLockKey XORs the UUID's four 32-bit words into the second. By the birthday bound two of n namespaces share a key with probability about n^2/2^33, about 50% at 77,000 namespaces; the issue observed collisions at 120,000 random UUIDs. Two colliding namespaces then serialise their entity upserts behind each other (tail-latency spikes on a random subset of namespaces) although they share no rows. No rule page describes a 32-bit hash used as the second part of the two-int form (weak-lock-key-hash says it is silent there), so the marker is `none`. The fix fills both int halves from the UUID's two 64-bit halves.
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

    /** Advisory lock key space for entity upserts ("KHOR"), to stay clear of other lock users. */
    static final int ENTITY_UPSERT_LOCK_KEY1 = 0x4B484F52;

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
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) { // want: none
            ps.setInt(1, ENTITY_UPSERT_LOCK_KEY1);
            ps.setInt(2, namespaceLockKey(namespaceId));
            ps.execute();
        }
    }

    /** A stable 32-bit key per namespace: the four 32-bit words of the UUID XOR-ed together. */
    static int namespaceLockKey(UUID namespaceId) {
        long msb = namespaceId.getMostSignificantBits();
        long lsb = namespaceId.getLeastSignificantBits();
        return (int) (msb >>> 32) ^ (int) msb ^ (int) (lsb >>> 32) ^ (int) lsb;
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
