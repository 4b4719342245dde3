package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.DataSourceUrl;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds the PostgreSQL URLs a project configures, each with its key, so that a lock site whose code opens its
 * connection with one of them ({@code DriverManager.getConnection(env.getProperty("app.locks.url"))}) is judged by
 * that data source's URL, not by the pooling evidence of the project's others. Reads {@code .properties}, YAML
 * (nested or dotted keys) and dotenv files; a value is taken when it is a PostgreSQL URL
 * ({@code jdbc:postgresql:}, {@code postgres://}, {@code postgresql://}, {@code r2dbc:postgresql://} with or without
 * {@code pool:}), placeholders
 * resolved to their defaults. Never throws for bad input; stateless.
 */
public final class DataSourceUrlScanner {

    private static final Pattern POSTGRES_URL = Pattern.compile(
            "^(jdbc:postgresql:|r2dbcs?:(pool:)?postgresql://|postgres(ql)?://).*", Pattern.CASE_INSENSITIVE);

    /** Creates a scanner; it holds no state. */
    public DataSourceUrlScanner() {}

    /**
     * @param file a configuration file; {@code .properties}, {@code .yml}, {@code .yaml} and dotenv files are read
     * @return its PostgreSQL URLs with their keys, in file order
     */
    public List<DataSourceUrl> scan(SourceFile file) {
        String name = file.path().substring(file.path().lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        List<DataSourceUrl> out = new ArrayList<>();
        if (name.endsWith(".properties") || name.equals(".env") || name.endsWith(".env") || name.startsWith(".env.")) {
            PropertiesConfig.forEachEntry(file.text(), (key, value) -> add(file, key, value, out));
        } else if (name.endsWith(".yml") || name.endsWith(".yaml")) {
            YamlConfig.forEachScalar(file, (key, value) -> add(file, key, value, out));
        }
        return out;
    }

    /**
     * @param key a configuration key or environment variable
     * @return the key as Spring's relaxed binding compares it: lower case, without {@code .}, {@code -} and
     *     {@code _} ({@code APP_LOCKS_URL} and {@code app.locks-url} are one key), and without the quotes Quarkus puts
     *     around a named data source ({@code quarkus.datasource."locks".jdbc.url}) or the profile before a Quarkus
     *     key ({@code %prod.quarkus.datasource.jdbc.url}: every profile's value counts, a pooler's winning)
     */
    public static String normalizedKey(String key) {
        String k = key.startsWith("%") && key.indexOf('.') > 0 ? key.substring(key.indexOf('.') + 1) : key;
        return k.toLowerCase(Locale.ROOT)
                .replace(".", "")
                .replace("-", "")
                .replace("_", "")
                .replace("\"", "");
    }

    /**
     * @param url a URL as the code or the configuration writes it
     * @return true when it is a PostgreSQL URL that points at a pooler (the inferred evidence of
     *     {@link PoolingEvidenceScanner})
     */
    public static boolean pointsAtPooler(String url) {
        return new PoolingEvidenceScanner()
                .scan(new SourceFile("url.txt", url)).evidence().stream()
                        .anyMatch(e -> e.mode() != PoolingMode.SESSION);
    }

    /** @return true when the text is a PostgreSQL URL */
    public static boolean isPostgresUrl(String text) {
        return POSTGRES_URL.matcher(text.strip()).matches();
    }

    private static void add(SourceFile file, String key, MappedText raw, List<DataSourceUrl> out) {
        String url = raw.resolvePlaceholders().strip().unquote().strip().text();
        if (!isPostgresUrl(url)) {
            return;
        }
        SourceRegion at = file.region(raw.start(0), raw.end(raw.length()));
        out.add(new DataSourceUrl(key, url, at, pointsAtPooler(url)));
    }
}
