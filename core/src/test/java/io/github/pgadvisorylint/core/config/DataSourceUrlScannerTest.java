package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.pgadvisorylint.core.model.DataSourceUrl;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PostgreSQL URLs a configuration gives, each with its key and whether it points at a pooler. */
class DataSourceUrlScannerTest {

    private static List<DataSourceUrl> scan(String path, String text) {
        return new DataSourceUrlScanner().scan(new SourceFile(path, text));
    }

    @Test
    void propertiesGiveEachPostgresUrlWithItsKeyAndPlaceholderDefault() {
        List<DataSourceUrl> urls = scan("application.properties", """
                spring.datasource.url=jdbc:postgresql://pgbouncer:6432/app
                app.locks.url=${LOCKS_URL:jdbc:postgresql://db:5432/app}
                app.cache.url=redis://cache:6379
                """);

        assertThat(urls)
                .extracting(DataSourceUrl::key, DataSourceUrl::url, DataSourceUrl::pooler)
                .containsExactly(
                        tuple("spring.datasource.url", "jdbc:postgresql://pgbouncer:6432/app", true),
                        tuple("app.locks.url", "jdbc:postgresql://db:5432/app", false));
        assertThat(urls.get(1).region().startLine()).isEqualTo(2);
    }

    @Test
    void nestedYamlKeysAndDotenvVariables() {
        assertThat(scan("application.yml", """
                        app:
                          locks:
                            url: postgres://db.internal/app
                        """))
                .extracting(DataSourceUrl::key, DataSourceUrl::pooler)
                .containsExactly(tuple("app.locks.url", false));
        assertThat(scan(".env", "REPORTS_DB_URL=postgresql://app-pooler.example.com/reports\n"))
                .extracting(DataSourceUrl::key, DataSourceUrl::pooler)
                .containsExactly(tuple("REPORTS_DB_URL", true));
        assertThat(scan("application.yml", "app: [unclosed\n"))
                .as("bad YAML gives nothing")
                .isEmpty();
    }

    @Test
    void keysCompareAsSpringsRelaxedBindingDoes() {
        assertThat(DataSourceUrlScanner.normalizedKey("APP_LOCKS_URL"))
                .isEqualTo(DataSourceUrlScanner.normalizedKey("app.locks-url"));
        assertThat(DataSourceUrlScanner.pointsAtPooler("jdbc:postgresql://db:6543/app?sslmode=require"))
                .isTrue();
        assertThat(DataSourceUrlScanner.pointsAtPooler("jdbc:postgresql://db:5432/app?prepareThreshold=0"))
                .as("prepareThreshold=0 is a pooler's setting")
                .isTrue();
        assertThat(DataSourceUrlScanner.pointsAtPooler("jdbc:postgresql://db:5432/app"))
                .isFalse();
        assertThat(DataSourceUrlScanner.isPostgresUrl("jdbc:h2:mem:test")).isFalse();
    }

    @Test
    void quarkusNamesAndProfilesAndR2dbcPoolUrls() {
        assertThat(DataSourceUrlScanner.normalizedKey("quarkus.datasource.\"lock-db\".jdbc.url"))
                .as("the quotes around a named data source")
                .isEqualTo(DataSourceUrlScanner.normalizedKey("quarkus.datasource.lock-db.jdbc.url"));
        assertThat(DataSourceUrlScanner.normalizedKey("%prod.quarkus.datasource.jdbc.url"))
                .as("a profile's value is the key's too")
                .isEqualTo(DataSourceUrlScanner.normalizedKey("quarkus.datasource.jdbc.url"));
        assertThat(DataSourceUrlScanner.isPostgresUrl("r2dbc:pool:postgresql://db:5432/app"))
                .isTrue();
        assertThat(DataSourceUrlScanner.isPostgresUrl("r2dbcs:postgresql://db:5432/app"))
                .isTrue();
        assertThat(DataSourceUrlScanner.isPostgresUrl("r2dbc:pool:mysql://db:3306/app"))
                .isFalse();
    }
}
