package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.config.AutoCommitScanner;
import io.github.pgadvisorylint.core.config.DataSourceUrlScanner;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.java.DataSourceBeans;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.ConnectionOrigin;
import io.github.pgadvisorylint.core.model.DataSourceUrl;
import io.github.pgadvisorylint.core.model.EvidenceScopes;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The connection defaults a project's configuration sets for its main pool, read from the configuration
 * files themselves whatever the prefilter said of them (they need not mention an advisory lock), so cached
 * facts change nothing here. Test resources (under the last {@code src/} of a path, {@code src/test/}) are left
 * out: they configure the tests' pool, not the application's.
 */
final class ConnectionDefaults {

    /** The keys of the application's main pool's URL (Spring Boot, Quarkus, Micronaut), compared relaxed. */
    private static final List<String> MAIN_POOL_KEYS = List.of(
            "spring.datasource.url",
            "spring.datasource.jdbc-url",
            "spring.datasource.hikari.jdbc-url",
            "quarkus.datasource.jdbc.url",
            "datasources.default.url");

    /**
     * Where a named data source's URL is configured when no {@code @Bean} method of the project defines that name
     * ({@code %s} is the name): Quarkus ({@code @DataSource("name")}; Quarkus guide "Configure data sources", named
     * datasources: {@code quarkus.datasource."name".jdbc.url}, {@code .reactive.url}) and Micronaut
     * ({@code @Named("name")}; Micronaut SQL guide: {@code datasources.name.url}, {@code r2dbc.datasources.name.url}).
     */
    private static final List<String> NAMED_SOURCE_KEYS = List.of(
            "quarkus.datasource.%s.jdbc.url",
            "quarkus.datasource.%s.reactive.url", "datasources.%s.url", "r2dbc.datasources.%s.url");

    /**
     * The APIs whose statements run on the application's main pool unless the code names another source (a qualifier,
     * a {@code DriverManager} URL: an origin of their own): templates, JPA, Spring Data, and JDBC statements on a
     * connection the code does not open from a URL it names.
     */
    private static final Set<ExecutionApi> MAIN_POOL_APIS = Set.of(
            ExecutionApi.SPRING_JDBC_TEMPLATE,
            ExecutionApi.JPA_NATIVE_QUERY,
            ExecutionApi.SPRING_DATA_QUERY,
            ExecutionApi.SPRING_DATA_PROCEDURE,
            ExecutionApi.JDBC_STATEMENT,
            ExecutionApi.JDBC_PREPARED_STATEMENT,
            ExecutionApi.JDBC_CALLABLE_STATEMENT);

    /**
     * The keys of the application's main reactive pool's URL, for R2DBC and Vert.x statements on an injected
     * connection factory or pool (Spring Boot {@code spring.r2dbc.url}, Quarkus {@code quarkus.datasource.reactive.url},
     * Micronaut {@code r2dbc.datasources.default.url}), compared relaxed.
     */
    private static final List<String> REACTIVE_MAIN_POOL_KEYS =
            List.of("spring.r2dbc.url", "quarkus.datasource.reactive.url", "r2dbc.datasources.default.url");

    /** The APIs whose statements run on the main reactive pool unless the code names another source. */
    private static final Set<ExecutionApi> REACTIVE_MAIN_POOL_APIS = Set.of(ExecutionApi.R2DBC, ExecutionApi.VERTX_SQL);

    private ConnectionDefaults() {}

    /**
     * @param configs the configuration files ({@link #configFiles})
     * @return the first setting (by path and line) that turns the main pool's auto-commit off, when no setting
     *     turns it on; else null (unset, on, or said both ways)
     */
    static AutoCommitSetting autoCommitOff(List<SourceFile> configs) {
        AutoCommitScanner scanner = new AutoCommitScanner();
        List<AutoCommitSetting> settings = new ArrayList<>();
        for (SourceFile text : configs) {
            settings.addAll(scanner.scan(text));
        }
        if (settings.isEmpty() || settings.stream().anyMatch(AutoCommitSetting::autoCommit)) {
            return null;
        }
        return Collections.min(settings);
    }

    /**
     * The data source each lock site's own connection goes to, where the code names its URL or the key it is read
     * from ({@link ExecutionContext#origin()}): the configured value of that key (in the files that speak for the
     * site's module; when several set it, a pooler URL among them wins, so a site is cleared only when every value
     * goes straight to PostgreSQL), or
     * the URL the code writes, or the placeholder's default when no file sets the key; for a site whose source is an
     * injected bean ({@link ConnectionOrigin#bean()}), the same for the URL its {@code @Bean} method says
     * ({@link DataSourceBeans}); for a site whose statement runs on the application's main pool (a template, JPA or a
     * Spring Data query without a qualifier), the main pool's configured URL when every value of it goes straight
     * to PostgreSQL.
     *
     * @param configs the configuration files ({@link #configFiles})
     * @param sites   the lock sites
     * @param scopes  the module each configuration file speaks for
     * @param files   the scan's files, where the Java configuration classes defining injected beans are read
     * @return by site id, the data source URL; sites whose origin is unknown, or not a PostgreSQL URL, are absent
     */
    static Map<String, DataSourceUrl> dataSources(
            List<SourceFile> configs, List<LockSite> sites, EvidenceScopes scopes, List<DiscoveredFile> files) {
        List<LockSite> named = sites.stream()
                .filter(s -> s.execution() != null && s.execution().origin() != null)
                .toList();
        List<LockSite> onMainPool = sites.stream()
                .filter(s -> s.execution() != null
                        && s.execution().origin() == null
                        && (MAIN_POOL_APIS.contains(s.api()) || REACTIVE_MAIN_POOL_APIS.contains(s.api())))
                .toList();
        if (named.isEmpty() && onMainPool.isEmpty()) {
            return Map.of();
        }
        DataSourceUrlScanner scanner = new DataSourceUrlScanner();
        List<DataSourceUrl> configured = new ArrayList<>();
        for (SourceFile text : configs) {
            configured.addAll(scanner.scan(text));
        }
        Map<String, DataSourceUrl> out = new TreeMap<>();
        for (LockSite site : onMainPool) {
            List<String> keys = REACTIVE_MAIN_POOL_APIS.contains(site.api()) ? REACTIVE_MAIN_POOL_KEYS : MAIN_POOL_KEYS;
            // the application's own pool, configured straight to PostgreSQL (every value the module's files give):
            // a pooler elsewhere in the project (another service's) is not on its way
            DataSourceUrl main = null;
            for (String key : keys) {
                DataSourceUrl u = configured(configured, key, site, scopes);
                if (u != null && (main == null || u.pooler())) {
                    main = u;
                }
            }
            if (main != null
                    && !moduleOf(main.region().path())
                            .equals(moduleOf(site.region().path()))) {
                main = null; // another module's pool (one it depends on, or a sibling): not known to be this code's
            }
            if (main != null && !main.pooler()) {
                out.put(site.id(), main);
            }
        }
        if (named.isEmpty()) {
            return out;
        }
        Set<String> beans = new TreeSet<>();
        named.forEach(s -> {
            if (s.execution().origin().bean() != null) {
                beans.add(s.execution().origin().bean());
            }
        });
        Map<String, List<ConnectionOrigin>> definitions =
                beans.isEmpty() ? Map.of() : DataSourceBeans.origins(beanFiles(files, beans), beans);
        for (LockSite site : named) {
            ConnectionOrigin origin = site.execution().origin();
            List<ConnectionOrigin> candidates = origin.bean() == null
                    ? List.of(origin)
                    : definitions.getOrDefault(origin.bean(), namedSource(origin));
            for (ConnectionOrigin o : candidates) {
                DataSourceUrl u = o.key() == null ? null : configured(configured, o.key(), site, scopes);
                if (u == null && o.url() != null && DataSourceUrlScanner.isPostgresUrl(o.url())) {
                    u = new DataSourceUrl(
                            o.key(), o.url().strip(), o.region(), DataSourceUrlScanner.pointsAtPooler(o.url()));
                }
                if (u != null) {
                    out.put(site.id(), u);
                    break;
                }
            }
        }
        return out;
    }

    /** @return the keys a Quarkus or Micronaut data source of the origin's bean name is configured under */
    private static List<ConnectionOrigin> namedSource(ConnectionOrigin origin) {
        return NAMED_SOURCE_KEYS.stream()
                .map(k -> new ConnectionOrigin(null, k.formatted(origin.bean()), origin.region()))
                .toList();
    }

    /** @return the module folder of a path: what comes before its last {@code src/} ({@code ""} at the root) */
    private static String moduleOf(String path) {
        String p = "/" + path;
        int src = p.lastIndexOf("/src/");
        return src < 0 ? "" : p.substring(0, src);
    }

    /**
     * @param files the scan's files
     * @param beans bean names
     * @return the Java files outside test sources whose text holds {@code @Bean} and one of the names (the
     *     configuration classes that may define them), read as text
     */
    private static List<SourceFile> beanFiles(List<DiscoveredFile> files, Set<String> beans) {
        List<SourceFile> out = new ArrayList<>();
        for (DiscoveredFile f : files) {
            String path = "/" + f.relativePath();
            if (f.kind() != FileKind.JAVA
                    || path.substring(path.lastIndexOf("/src/") + 1).startsWith("src/test/")) {
                continue;
            }
            SourceFile text = MigrationScan.read(f);
            if (text != null && text.text().contains("@Bean") && beans.stream().anyMatch(text.text()::contains)) {
                out.add(text);
            }
        }
        return out;
    }

    /**
     * @return the value of {@code key} the configuration gives the site's module ({@link EvidenceScopes}: a sibling
     *     service's file says nothing of it): a pooler URL among several wins; null when none sets the key
     */
    private static DataSourceUrl configured(
            List<DataSourceUrl> configured, String key, LockSite site, EvidenceScopes scopes) {
        String wanted = DataSourceUrlScanner.normalizedKey(key);
        DataSourceUrl found = null;
        for (DataSourceUrl u : configured) {
            if (DataSourceUrlScanner.normalizedKey(u.key()).equals(wanted)
                    && scopes.applies(u.region(), site.region().path())
                    && (found == null || (!found.pooler() && u.pooler()))) {
                found = u;
            }
        }
        return found;
    }

    /**
     * @param files the scan's files
     * @return the configuration files outside test resources, read as text once for both readers here:
     *     {@code .properties}, YAML and dotenv ({@code .env}, {@code *.env}, {@code .env.*}; the auto-commit
     *     reader skips those)
     */
    static List<SourceFile> configFiles(List<DiscoveredFile> files) {
        List<SourceFile> out = new ArrayList<>();
        for (DiscoveredFile f : files) {
            String path = "/" + f.relativePath().toLowerCase(Locale.ROOT);
            String name = path.substring(path.lastIndexOf('/') + 1);
            boolean dotenv = name.equals(".env") || name.endsWith(".env") || name.startsWith(".env.");
            if (f.kind() != FileKind.CONFIG
                    || path.substring(path.lastIndexOf("/src/") + 1).startsWith("src/test/")
                    || !(path.endsWith(".properties") || path.endsWith(".yml") || path.endsWith(".yaml") || dotenv)) {
                continue;
            }
            SourceFile text = MigrationScan.read(f);
            if (text != null) {
                out.add(text);
            }
        }
        return out;
    }
}
