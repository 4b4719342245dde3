package com.example.river;

import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** JDBC driver of the client: every database access of RiverClient goes through here. */
public class RiverDriver {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public RiverDriver(JdbcTemplate jdbc, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /** Runs the work in one transaction; JdbcTemplate calls inside it share its connection. */
    public <T> T inTransaction(Supplier<T> work) {
        return tx.execute(status -> work.get());
    }

    /** Transaction-level lock; callers invoke it inside {@link #inTransaction}. */
    public void advisoryXactLock(long key) {
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(?)", Object.class, key);
    }

    public Optional<Job> findByKindAndUniqueProperties(InsertParams params, UniqueOpts unique) {
        StringBuilder sql = new StringBuilder("SELECT * FROM river_job WHERE kind = ?");
        List<Object> args = new java.util.ArrayList<>(List.of(params.kind()));
        if (unique.byArgs()) {
            sql.append(" AND args = ?::jsonb");
            args.add(params.encodedArgs());
        }
        if (unique.byQueue()) {
            sql.append(" AND queue = ?");
            args.add(params.queue());
        }
        if (unique.byPeriodSeconds() > 0) {
            sql.append(" AND created_at >= ?");
            args.add(Timestamp.from(params.periodStart(unique.byPeriodSeconds())));
        }
        sql.append(" AND state = ANY(?::river_job_state[]) LIMIT 1");
        args.add(unique.statesAsArray());
        return jdbc.query(sql.toString(), Job.ROW_MAPPER, args.toArray()).stream().findFirst();
    }

    public Job insertJob(InsertParams params) {
        return jdbc.queryForObject(
                "INSERT INTO river_job (kind, args, queue, priority, max_attempts, scheduled_at, state)"
                        + " VALUES (?, ?::jsonb, ?, ?, ?, coalesce(?, now()), 'available') RETURNING *",
                Job.ROW_MAPPER,
                params.kind(), params.encodedArgs(), params.queue(), params.priority(), params.maxAttempts(),
                params.scheduledAt() == null ? null : Timestamp.from(params.scheduledAt()));
    }
}
