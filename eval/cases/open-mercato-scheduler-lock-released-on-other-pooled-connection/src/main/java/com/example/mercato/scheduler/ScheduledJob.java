package com.example.mercato.scheduler;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of scheduled_jobs: what to run (a queue job or a command), how often, and whether the tenant must have
 * a feature for it to run.
 */
public record ScheduledJob(
        UUID id,
        UUID tenantId,
        String name,
        Duration interval,
        String targetType,
        String target,
        String requireFeature) {

    static final String COLUMNS =
            "id, tenant_id, name, interval_seconds, target_type, target, require_feature";

    static ScheduledJob fromRow(ResultSet rs, int rowNum) throws SQLException {
        return new ScheduledJob(
                rs.getObject("id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getString("name"),
                Duration.ofSeconds(rs.getLong("interval_seconds")),
                rs.getString("target_type"),
                rs.getString("target"),
                rs.getString("require_feature"));
    }

    /** The lock key under which one schedule runs. */
    String lockKey() {
        return "schedule:" + id;
    }

    Instant nextRunAfter(Instant lastRun) {
        return lastRun.plus(interval);
    }
}
