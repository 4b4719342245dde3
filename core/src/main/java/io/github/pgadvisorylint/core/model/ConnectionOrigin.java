package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * Where the code says a lock site's connection goes: the JDBC URL it opens its own connection with
 * ({@code DriverManager.getConnection(url)}), or the configuration key that URL is read from
 * ({@code @Value("${app.db.url}")}, {@code env.getProperty("app.db.url")}, {@code System.getenv("DB_URL")}).
 * The pooling evidence of that one data source then speaks for the site, not the project's other sources.
 *
 * @param url    the URL as the code writes it (a literal or a constant), or the default of the placeholder it reads;
 *               null when only a key is known
 * @param key    the configuration key or environment variable the URL is read from, or null for a URL in the code
 * @param region where the code names the URL or the key
 */
public record ConnectionOrigin(String url, String key, SourceRegion region) {

    /** A URL or a key is required, and the region. */
    public ConnectionOrigin {
        if (url == null && key == null) {
            throw new IllegalArgumentException("a connection origin needs a URL or a key");
        }
        Objects.requireNonNull(region, "region");
    }

    /** @return the key or the URL, for messages: {@code app.db.url}, {@code jdbc:postgresql://db:5432/app} */
    public String display() {
        return key != null ? key : url;
    }
}
