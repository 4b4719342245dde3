// Case: pgai's vectorizer worker claims a batch of queued rows in one transaction and, so that two workers never embed the same row, takes a two-int transaction-level try-lock per row whose first key was the OID of the vectorizer's queue table; on a database whose OID counter had passed 2147483647 the queue table's OID no longer fit the int half of the key and every batch of that vectorizer failed.
// Source: https://github.com/timescale/pgai/issues/865
// Kind: bug
// Expected: the queue table's OID (an unsigned 32-bit value, read with getLong because it can exceed Integer.MAX_VALUE) is bound with setLong as the first key of pg_try_advisory_xact_lock(?::int, hashtext(...)), the two-int form; a queue table created while the cluster's OID counter was at most 2147483647 works, but one created after the counter passed it (a long-lived database that creates many tables) has an OID the cast rejects: `?::int` fails with `integer out of range` (22003, F20) on every call, the fetch-work query fails, the transaction rolls back and the vectorizer never processes its queue again (in the original, psycopg sent the large value as bigint and the call failed with `function pg_try_advisory_xact_lock(bigint, integer) does not exist`). The lock itself is sound otherwise: taken in the select list over a batch bounded by LIMIT, inside the transaction that deletes the queue rows and writes the embeddings.
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
    private Long queueTableOid;

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
                + "    SELECT id, pg_try_advisory_xact_lock(?::int, hashtext(id::text)) AS locked" // want: lock-key-out-of-range
                + "    FROM (SELECT DISTINCT id FROM selected_rows ORDER BY id) AS ids"
                + "), deleted_rows AS ("
                + "    DELETE FROM " + queue + " AS w USING locked_items AS l WHERE l.locked AND w.id = l.id"
                + ")"
                + " SELECT l.id, s.body FROM locked_items AS l"
                + " LEFT JOIN " + vectorizer.sourceTableName() + " AS s ON s.id = l.id"
                + " WHERE l.locked ORDER BY l.id";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setInt(1, vectorizer.batchSize());
            ps.setLong(2, queueTableOid(conn));      // may: lock-key-out-of-range
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

    private long queueTableOid(Connection conn) throws SQLException {
        if (queueTableOid == null) {
            try (PreparedStatement ps = conn.prepareStatement("SELECT to_regclass(?)::oid")) {
                ps.setString(1, vectorizer.queueTableName());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || rs.getObject(1) == null) throw new SQLException("no work queue table " + vectorizer.queueTableName());
                    queueTableOid = rs.getLong(1);     // oid is unsigned: up to 4294967295
                }
            }
        }
        return queueTableOid;
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
