// Case: pg_partman's fix for partition_data_proc: the run now guards the parent table with a session-level try-lock, as run_maintenance_proc does, so the lock survives the commit after each batch, and releases it when the loop ends.
// Source: https://github.com/pgpartman/pg_partman/issues/819
// Kind: correct
// Expected: nothing to report. pg_try_advisory_lock is taken in autocommit before the batches start and belongs to the session, so the commits between batches do not release it (F1) and a second run for the same parent table gets false until this one is done. Only after the lock is held does the connection switch to manual transactions; a failed batch or an interrupted pause is rolled back in the catch, and the finally block then returns to autocommit (no transaction is open any more) and runs pg_advisory_unlock with the same two keys on the same connection, checking its result, before the connection goes back to the pool. A false try-lock returns before anything is taken.
package com.example.partitioning;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Java port of partman.partition_data_proc: one batch per transaction, a pause between batches. */
public class PartitionDataRunner {

    private static final Logger log = LoggerFactory.getLogger(PartitionDataRunner.class);
    private final DataSource dataSource;
    private final PartConfigRepository configs;

    public PartitionDataRunner(DataSource dataSource, PartConfigRepository configs) {
        this.dataSource = dataSource;
        this.configs = configs;
    }

    /** Returns the number of rows moved; 0 when another run already works on this parent table. */
    public long partitionData(String parentTable, int loopCount, int lockWaitTries, Duration wait, String order)
            throws SQLException, InterruptedException {
        try (Connection conn = dataSource.getConnection()) {
            if (!tryLockParent(conn, parentTable)) {
                log.info("partition_data already running for parent table {}", parentTable);
                return 0;
            }
            try {
                conn.setAutoCommit(false);
                return moveAllBatches(conn, parentTable, loopCount, lockWaitTries, wait, order);
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            } catch (InterruptedException e) {
                conn.rollback();
                Thread.currentThread().interrupt();
                throw e;
            } finally {
                conn.setAutoCommit(true);
                unlockParent(conn, parentTable);
            }
        }
    }

    private long moveAllBatches(Connection conn, String parentTable, int loopCount, int lockWaitTries, Duration wait,
            String order) throws SQLException, InterruptedException {
        PartConfigRepository.PartConfig config = configs.find(conn, parentTable);
        String batchSql = batchFunctionCall(config.controlType());
        long total = 0;
        int loops = 0, lockWaits = 0;
        while (true) {
            long moved = moveBatch(conn, batchSql, parentTable, order);
            if (moved == -1) {
                if (++lockWaits > lockWaitTries) {
                    throw new IllegalStateException("Quitting: cannot lock the next batch of rows of " + parentTable);
                }
                log.info("Unable to lock rows to move in {}, trying again", parentTable);
            } else {
                lockWaits = 0;
                loops++;
                total += moved;
                log.info("Loop {}: moved {} rows of {}", loops, moved, parentTable);
            }
            if (moved == 0 || (loopCount > 0 && loops >= loopCount)) {
                break;
            }
            conn.commit();
            Thread.sleep(wait.toMillis());
        }
        conn.commit();
        log.info("Total rows moved from {}: {}; VACUUM ANALYZE the parent afterwards", parentTable, total);
        return total;
    }

    private boolean tryLockParent(Connection conn, String parentTable) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT pg_try_advisory_lock(hashtext('pg_partman partition_data_proc'), hashtext(?))")) {
            ps.setString(1, parentTable);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void unlockParent(Connection conn, String parentTable) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT pg_advisory_unlock(hashtext('pg_partman partition_data_proc'), hashtext(?))")) {
            ps.setString(1, parentTable);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    log.warn("partition_data lock for {} was not held when released", parentTable);
                }
            }
        }
    }

    private static String batchFunctionCall(String controlType) {
        String function = "time".equals(controlType) ? "partition_data_time" : "partition_data_id";
        return "SELECT partman." + function + "(p_parent_table := ?, p_loop_count := 1, p_order := ?, p_analyze := false)";
    }

    // one batch into its child partition, creating the child when missing; -1 when its rows are locked
    private long moveBatch(Connection conn, String batchSql, String parentTable, String order) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(batchSql)) {
            ps.setString(1, parentTable);
            ps.setString(2, order);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
