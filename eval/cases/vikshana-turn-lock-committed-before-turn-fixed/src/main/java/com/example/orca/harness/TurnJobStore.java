package com.example.orca.harness;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The turn_jobs queue table: claim, requeue, lease renewal and final status, each in its own short transaction. */
public class TurnJobStore {

    private static final Logger log = LoggerFactory.getLogger(TurnJobStore.class);

    private static final String CLAIM_SQL = """
            UPDATE turn_jobs
               SET status = 'claimed', claimed_at = now(), worker_id = ?, attempts = attempts + 1
             WHERE id = (SELECT id FROM turn_jobs
                          WHERE status = 'pending'
                          ORDER BY created_at
                          LIMIT 1
                          FOR UPDATE SKIP LOCKED)
            RETURNING id, session_id, payload::text
            """;

    private final DataSource dataSource;
    private final String workerId;

    public TurnJobStore(DataSource dataSource, String workerId) {
        this.dataSource = dataSource;
        this.workerId = workerId;
    }

    TurnWorker.ClaimedJob claimNext() throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement(CLAIM_SQL)) {
            ps.setString(1, workerId);
            try (ResultSet rs = ps.executeQuery()) {   // autocommit: the claim commits with this statement
                if (!rs.next()) {
                    return null;
                }
                return new TurnWorker.ClaimedJob(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3));
            }
        }
    }

    /** Session busy elsewhere: healthy contention, so the attempt does not count against the retry budget. */
    void requeueBusy(UUID jobId) throws SQLException {
        update("UPDATE turn_jobs SET status = 'pending', worker_id = NULL, claimed_at = NULL, "
                + "attempts = GREATEST(attempts - 1, 0) WHERE id = ?", jobId);
    }

    /** Renews the claim lease so the orphan reaper never requeues a turn that is still running. */
    void heartbeat(UUID jobId) {
        try {
            update("UPDATE turn_jobs SET claimed_at = now() WHERE id = ? AND status = 'claimed'", jobId);
        } catch (SQLException e) {
            log.warn("heartbeat for turn job {} failed", jobId, e);   // best effort: never fail the turn for it
        }
    }

    void mark(UUID jobId, String status) throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement("UPDATE turn_jobs SET status = ?, finished_at = now() WHERE id = ?")) {
            ps.setString(1, status);
            ps.setObject(2, jobId);
            ps.executeUpdate();
        }
    }

    private void update(String sql, UUID jobId) throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setObject(1, jobId);
            ps.executeUpdate();
        }
    }
}
