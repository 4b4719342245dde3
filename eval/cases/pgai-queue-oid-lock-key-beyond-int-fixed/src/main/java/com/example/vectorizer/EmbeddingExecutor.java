// Case: pgai's fix for its vectorizer worker: the per-row transaction-level try-lock that keeps two workers off one queued row now takes the vectorizer's own integer id as its first key instead of the OID of the vectorizer's queue table, which stopped fitting the int half of the key once OIDs passed 2147483647.
// Source: https://github.com/timescale/pgai/pull/868
// Kind: correct
// Expected: nothing to report. The first key of the two-int pg_try_advisory_xact_lock is the vectorizer id, an int (serial) bound with setInt, and the second is hashtext of the row id, an int by construction: both halves always fit. Each vectorizer has exactly one queue table, so the id namespaces the row keys as uniquely as the OID did. The try-lock runs in the select list of a CTE over a batch bounded by LIMIT (at most 2048 rows), only rows whose lock returned true are deleted from the queue and returned, and the locks are transaction-level, taken inside the one transaction (autocommit off) that deletes the queue rows and writes the embeddings, and end at its commit or rollback.
package com.example.vectorizer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class EmbeddingExecutor {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingExecutor.class);

    private final DataSource dataSource;
    private final Vectorizer vectorizer;
    private final Function<List<String>, List<float[]>> embed; // the provider's API: one vector per text, in order

    public EmbeddingExecutor(DataSource dataSource, Vectorizer vectorizer, Function<List<String>, List<float[]>> embed) {
        this.dataSource = dataSource;
        this.vectorizer = vectorizer;
        this.embed = embed;
    }

    /** Embeds one batch of queued rows; returns how many rows it processed (0 when the queue is empty). */
    public int processBatch() throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                List<Long> ids = new ArrayList<>();
                List<String> bodies = new ArrayList<>();
                fetchWork(conn, ids, bodies);
                if (!ids.isEmpty()) {
                    writeEmbeddings(conn, ids, embed.apply(bodies));
                }
                conn.commit();
                log.debug("vectorizer {}: embedded {} rows", vectorizer.id(), ids.size());
                return ids.size();
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }

    /** Claims up to batchSize queue rows no other worker holds, deletes them from the queue, returns their source rows. */
    private void fetchWork(Connection conn, List<Long> ids, List<String> bodies) throws SQLException {
        String queue = vectorizer.queueTableName();
        String sql = "WITH selected_rows AS ("
                + "    SELECT id FROM " + queue + " LIMIT ? FOR UPDATE SKIP LOCKED"
                + "), locked_items AS ("
                + "    SELECT id, pg_try_advisory_xact_lock(?::int, hashtext(id::text)::int) AS locked"
                + "    FROM (SELECT DISTINCT id FROM selected_rows ORDER BY id) AS ids"
                + "), deleted_rows AS ("
                + "    DELETE FROM " + queue + " AS w USING locked_items AS l WHERE l.locked AND w.id = l.id"
                + ")"
                + " SELECT l.id, s.body FROM locked_items AS l"
                + " LEFT JOIN " + vectorizer.sourceTableName() + " AS s ON s.id = l.id"
                + " WHERE l.locked ORDER BY l.id";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setInt(1, vectorizer.batchSize());
            ps.setInt(2, vectorizer.id());           // one queue table per vectorizer: its id is the namespace
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String body = rs.getString(2);
                    if (body != null) {                // null: the source row was deleted after it was queued
                        ids.add(rs.getLong(1));
                        bodies.add(body);
                    }
                }
            }
        }
    }

    private void writeEmbeddings(Connection conn, List<Long> ids, List<float[]> vectors) throws SQLException {
        String target = vectorizer.targetTableName();
        try (PreparedStatement delete = conn.prepareStatement("DELETE FROM " + target + " WHERE id = ?");
             PreparedStatement insert = conn.prepareStatement("INSERT INTO " + target + " (id, embedding) VALUES (?, ?::vector)")) {
            for (int i = 0; i < ids.size(); i++) {
                delete.setLong(1, ids.get(i));
                delete.addBatch();
                insert.setLong(1, ids.get(i));
                insert.setString(2, toVectorLiteral(vectors.get(i)));
                insert.addBatch();
            }
            delete.executeBatch();
            insert.executeBatch();
        }
    }

    private static String toVectorLiteral(float[] vector) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < vector.length; i++) {
            sb.append(i == 0 ? "" : ",").append(vector[i]);
        }
        return sb.append(']').toString();
    }
}
