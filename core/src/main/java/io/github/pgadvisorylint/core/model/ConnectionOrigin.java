package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * Where the code says a lock site's connection goes: the JDBC URL it opens its own connection with
 * ({@code DriverManager.getConnection(url)}), the configuration key that URL is read from
 * ({@code @Value("${app.db.url}")}, {@code env.getProperty("app.db.url")}, {@code System.getenv("DB_URL")}), or the
 * Spring bean its {@code DataSource} or template is injected as ({@code @Qualifier("lockDataSource")}), whose
 * definition says the URL. The pooling evidence of that one data source then speaks for the site, not the project's
 * other sources.
 *
 * @param url    the URL as the code writes it (a literal or a constant), or the default of the placeholder it reads;
 *               null when only a key or a bean is known
 * @param key    the configuration key or environment variable the URL is read from, or null
 * @param region where the code names the URL, the key or the bean
 * @param bean   the name of the bean the connection's source is injected as, or null
 */
public record ConnectionOrigin(String url, String key, SourceRegion region, String bean) {

    /** A URL, a key or a bean is required, and the region. */
    public ConnectionOrigin {
        if (url == null && key == null && bean == null) {
            throw new IllegalArgumentException("a connection origin needs a URL, a key or a bean");
        }
        Objects.requireNonNull(region, "region");
    }

    /**
     * An origin the code or the configuration writes.
     *
     * @param url    the URL, or null
     * @param key    the key, or null
     * @param region where
     */
    public ConnectionOrigin(String url, String key, SourceRegion region) {
        this(url, key, region, null);
    }

    /** @return the key, the URL or the bean, for messages: {@code app.db.url}, {@code jdbc:postgresql://db:5432/app} */
    public String display() {
        return key != null ? key : url != null ? url : "the bean " + bean;
    }
}
