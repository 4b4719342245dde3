package com.example.streams;

import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Lock helper: runs the work while this session holds the stream table's key, or skips it. */
@Component
public class SessionLocks {

    private final JdbcTemplate jdbc;

    public SessionLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public <T> Optional<T> withTryLock(long key, Supplier<T> work) {
        Boolean got = jdbc.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, key); // may: lock-without-finally-unlock
        if (!Boolean.TRUE.equals(got)) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(work.get());
        } finally {
            jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, key); // want: session-unlock-before-commit|lock-without-finally-unlock
        }
    }
}
