package com.example.river;

import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.RowMapper;

interface JobArgs {
    String kind();

    String toJson();
}

record InsertOpts(String queue, Integer priority, Integer maxAttempts, Instant scheduledAt, UniqueOpts uniqueOpts) {
}

record UniqueOpts(boolean byArgs, long byPeriodSeconds, boolean byQueue, boolean byState, List<String> states) {

    static final List<String> DEFAULT_STATES = List.of("available", "completed", "running", "retryable", "scheduled");

    boolean anySet() {
        return byArgs || byPeriodSeconds > 0 || byQueue || byState;
    }

    String[] statesAsArray() {
        return (byState ? states : DEFAULT_STATES).toArray(String[]::new);
    }
}

record InsertParams(String kind, String encodedArgs, String queue, int priority, int maxAttempts, Instant scheduledAt) {

    static InsertParams of(JobArgs args, InsertOpts opts) {
        return new InsertParams(args.kind(), args.toJson(),
                opts.queue() == null ? "default" : opts.queue(),
                opts.priority() == null ? 1 : opts.priority(),
                opts.maxAttempts() == null ? 25 : opts.maxAttempts(),
                opts.scheduledAt());
    }

    Instant periodStart(long periodSeconds) {
        long now = Instant.now().getEpochSecond();
        return Instant.ofEpochSecond(now - Math.floorMod(now, periodSeconds));
    }
}

record Job(long id, String kind, String state) {

    static final RowMapper<Job> ROW_MAPPER =
            (rs, n) -> new Job(rs.getLong("id"), rs.getString("kind"), rs.getString("state"));
}
