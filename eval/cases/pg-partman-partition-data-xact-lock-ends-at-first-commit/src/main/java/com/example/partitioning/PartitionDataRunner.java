// Case: pg_partman's partition_data_proc moves rows out of a partitioned table's default partition in batches and commits after each batch so locks and WAL stay small; it guards against a second run for the same parent table with a transaction-level try-lock taken at the start, which the first batch's commit releases.
// Source: https://github.com/pgpartman/pg_partman/issues/819
// Kind: bug
// Expected: partitionData takes pg_try_advisory_xact_lock(hashtext('pg_partman partition_data_proc'), hashtext(parent)) on a connection with autocommit off, then loops over batches and calls conn.commit() after each one. A transaction-level lock ends with its transaction and cannot outlive a commit (F2), so only the first batch runs under the lock: from the first commit on, a second run for the same parent table (a cron overlap, an operator starting it by hand) gets true from its own try-lock and moves batches and creates child partitions at the same time as this one. The lock has to span every batch: take a session-level pg_try_advisory_lock before the loop and release it with pg_advisory_unlock when the loop ends, on every path, as run_maintenance_proc already does.
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
            conn.setAutoCommit(false);
            try {
                if (!tryLockParent(conn, parentTable)) {
                    conn.rollback();
                    log.info("partition_data already running for parent table {}", parentTable);
                    return 0;
                }
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
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            } catch (InterruptedException e) {
                conn.rollback();
                Thread.currentThread().interrupt();
                throw e;
            }
        }
    }

    private boolean tryLockParent(Connection conn, String parentTable) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT pg_try_advisory_xact_lock(hashtext('pg_partman partition_data_proc'), hashtext(?))")) { // want: xact-lock-outside-transaction
            ps.setString(1, parentTable);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
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
