package com.example.connector;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class PartnerImporter {

    private final AdvisoryLocks locks;
    private final JdbcTemplate jdbc;
    private final JobRunner runner;

    public PartnerImporter(AdvisoryLocks locks, JdbcTemplate jdbc, JobRunner runner) {
        this.locks = locks;
        this.jdbc = jdbc;
        this.runner = runner;
    }

    /** A queued job: import one partner of a backend, with the categories it depends on. */
    public void runJob(long jobId, long backendId, String externalId) {
        runner.perform(jobId, () -> importPartner(backendId, externalId));
    }

    void importPartner(long backendId, String externalId) {
        locks.lockOrRetry("import-partner-" + backendId + "-" + externalId);
        locks.lockOrRetry("import-category-" + backendId + "-Retail");    // a dependency other partners share
        jdbc.update("INSERT INTO partner_category(backend_id, name) SELECT ?, 'Retail' "
                + "WHERE NOT EXISTS (SELECT 1 FROM partner_category WHERE backend_id = ? AND name = 'Retail')",
                backendId, backendId);
        jdbc.update("INSERT INTO partner(backend_id, external_id) VALUES (?, ?) "
                + "ON CONFLICT (backend_id, external_id) DO NOTHING", backendId, externalId);
    }
}
