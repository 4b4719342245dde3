// Case: OCA connector added an advisory lock so that two import jobs do not create the same record concurrently; the lock is pg_try_advisory_xact_lock taken at the start of the importer, a job that cannot get it is retried later, and the helper was renamed from a context manager to advisory_lock_or_retry because the lock lasts until the end of the job's transaction, not the end of a block.
// Source: https://github.com/OCA/connector/pull/139
// Kind: correct
// Expected: nothing to report. lockOrRetry takes a transaction-level try-lock through JdbcTemplate in a method with no transaction of its own, and never releases it; its only caller, PartnerImporter.importPartner, runs inside the callback JobRunner.perform hands to TransactionTemplate, so the lock is taken on the job's transaction connection and lasts until that transaction commits or rolls back, after the imported rows are written (F2). The try-lock's result decides the work: false throws RetryableJobException, which rolls the job back and postpones it. The key is 64 bits of SHA-1 of the lock name, not a 32-bit hash.
package com.example.connector;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class AdvisoryLocks {

    private final JdbcTemplate jdbc;

    public AdvisoryLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks name until the end of the current transaction, or asks for the job to be retried later. */
    public void lockOrRetry(String name) {
        Boolean got = jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, keyOf(name));
        if (!Boolean.TRUE.equals(got)) {
            throw new RetryableJobException("Could not acquire advisory lock " + name);
        }
    }

    static long keyOf(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static class RetryableJobException extends RuntimeException {
        public RetryableJobException(String message) {
            super(message);
        }
    }
}
