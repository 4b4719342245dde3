package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * A PostgreSQL URL one data source connects with, as the configuration or the code writes it, and whether it
 * points at a pooler (PgBouncer's port 6432, Supabase's 6543, a {@code pgbouncer} or {@code -pooler} host,
 * {@code prepareThreshold=0}: the inferred evidence of {@code PoolingEvidenceScanner}).
 *
 * @param key    the configuration key it is the value of ({@code app.locks.url}), or null for a URL in the code
 * @param url    the URL, placeholders resolved to their defaults
 * @param region where it is written
 * @param pooler true when it points at a pooler
 */
public record DataSourceUrl(String key, String url, SourceRegion region, boolean pooler) {

    /** The URL and its region are required. */
    public DataSourceUrl {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(region, "region");
    }

    /** @return {@code key=url}, or the URL alone, for messages */
    public String display() {
        return key == null ? url : key + "=" + url;
    }
}
