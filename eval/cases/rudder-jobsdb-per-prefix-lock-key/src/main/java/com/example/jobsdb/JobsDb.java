// Case: rudder-server's jobs database took one constant advisory lock (11) in the add-dataset loop of every jobs-table family (gw, rt, batch_rt, proc_error), so unrelated families serialized on each other; the fix derives a key per table prefix and operation from SHA-256, still formatted into the SQL text, and a test checks the keys of all prefixes and operations are distinct.
// Source: https://github.com/rudderlabs/rudder-server/pull/2575
// Kind: correct
// Expected: correct: the key is the first 4 bytes of SHA-256(prefix + "_" + operation) read as an unsigned number, always inside bigint and distinct for the handful of fixed prefixes and operations; it is a long formatted with %d (no injection), and the transaction-level lock is taken inside the same transaction as the dataset change, so it lasts exactly until that commit.
package com.example.jobsdb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** One jobs-table family ("gw", "rt", "batch_rt", "proc_error"): tables gw_jobs_1, gw_jobs_2, ... */
public class JobsDb {

    private final String tablePrefix;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final DatasetList datasets;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();

    public JobsDb(String tablePrefix, JdbcTemplate jdbc, TransactionTemplate tx, DatasetList datasets) {
        this.tablePrefix = tablePrefix;
        this.jdbc = jdbc;
        this.tx = tx;
        this.datasets = datasets;
    }

    public void start() {
        long addDsLock = advisoryLockFor("add_ds");
        loop.scheduleWithFixedDelay(() -> addNewDatasetIfFull(addDsLock), 5, 5, TimeUnit.SECONDS);
    }

    /** Every replica runs this loop; the lock makes one of them at a time create the next table of this family. */
    void addNewDatasetIfFull(long addDsLock) {
        tx.executeWithoutResult(status -> {
            jdbc.execute(String.format("SELECT pg_advisory_xact_lock(%d)", addDsLock)); // may: weak-lock-key-hash|blocking-lock-without-timeout
            Dataset last = datasets.refreshAndGetLast(jdbc, tablePrefix);
            if (last.isFull()) {
                Dataset next = last.next();
                jdbc.execute("CREATE TABLE " + next.jobsTable() + " (LIKE " + last.jobsTable() + " INCLUDING ALL)");
                jdbc.update("INSERT INTO " + tablePrefix + "_datasets(name) VALUES (?)", next.name());
                jdbc.execute("CREATE TRIGGER readonly_trg BEFORE INSERT ON " + last.jobsTable()
                        + " FOR EACH STATEMENT EXECUTE FUNCTION reject_writes()");
            }
        });
    }

    /** 32 bits of SHA-256 over prefix and operation, as a non-negative bigint key. */
    long advisoryLockFor(String operation) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((tablePrefix + "_" + operation).getBytes(StandardCharsets.UTF_8));
            return Integer.toUnsignedLong(ByteBuffer.wrap(digest).getInt(0));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public interface DatasetList {
        Dataset refreshAndGetLast(JdbcTemplate jdbc, String tablePrefix);
    }

    public interface Dataset {
        boolean isFull();
        Dataset next();
        String jobsTable();
        String name();
    }
}
