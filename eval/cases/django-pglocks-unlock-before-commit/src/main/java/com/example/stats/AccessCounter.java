// Case: django-pglocks' advisory_lock context manager released its session lock on exit while Django's transaction (request middleware) was still open, so a waiting worker read the row before the first worker's update was committed and an increment was lost
// Source: https://github.com/Xof/django-pglocks/issues/15
// Kind: bug
// Expected: the session-level lock is released in finally inside the @Transactional method, before Spring commits: the next waiter gets the key at once (F19) and reads the old access_count, so concurrent hits lose increments; use pg_advisory_xact_lock, or commit before unlocking.
package com.example.stats;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class AccessCounter {

    private final JdbcTemplate jdbc;

    public AccessCounter(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional
    public long recordAccess(long documentId) {
        jdbc.queryForObject("SELECT pg_advisory_lock(?)", Object.class, documentId); // want: lock-without-finally-unlock (corrected after the scan: a server error in the SELECT or UPDATE aborts the @Transactional transaction, so the unlock in finally fails with SQLSTATE 25P02 and the pooled session keeps the lock, F18 F1 F13)
        try {
            Long accessed = jdbc.queryForObject(
                    "SELECT access_count FROM documents WHERE id = ?", Long.class, documentId);
            long next = (accessed == null ? 0 : accessed) + 1;
            jdbc.update("UPDATE documents SET access_count = ?, last_access = now() WHERE id = ?", next, documentId);
            return next;
        } finally {
            jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, documentId); // want: session-unlock-before-commit
        }   // may: try-lock-result-ignored
    }
}
