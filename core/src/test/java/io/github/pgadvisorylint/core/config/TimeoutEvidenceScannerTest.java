package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.TimeoutEvidence;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Timeouts a project's configuration sets for every connection (blocking-lock-without-timeout, F12). */
class TimeoutEvidenceScannerTest {

    private static List<TimeoutEvidence> scan(String path, String text) {
        return new TimeoutEvidenceScanner().scan(new SourceFile(path, text));
    }

    @Test
    void jdbcUrlOptionsPlainAndEncoded() {
        assertThat(scan(
                        "application.properties",
                        "spring.datasource.url=jdbc:postgresql://h/db?options=-c%20lock_timeout%3D5s\n"))
                .singleElement()
                .satisfies(e -> assertThat(e.description()).contains("lock_timeout=5s"));
        assertThat(scan("application.yml", "url: \"jdbc:postgresql://h/db?options=-c statement_timeout=30000\"\n"))
                .hasSize(1);
    }

    @Test
    void dataSourcePropertyAndInitSql() {
        assertThat(scan("application.yml", "      data-source-properties:\n        options: \"-c lock_timeout=8s\"\n"))
                .hasSize(1);
        assertThat(scan("application.yml", "      connection-init-sql: SET lock_timeout = '30s'\n"))
                .hasSize(1);
    }

    @Test
    void serverConfiguration() {
        assertThat(scan("deploy/postgresql.conf", "lock_timeout = '10s'\n")).hasSize(1);
        assertThat(scan("deploy/postgresql.conf", "#lock_timeout = 0\n")).isEmpty();
        assertThat(scan("deploy/other.conf", "lock_timeout = '10s'\n")).isEmpty();
    }

    @Test
    void notTimeouts() {
        assertThat(scan(
                        "application.properties",
                        "url=jdbc:postgresql://h/db?socketTimeout=30&options=-c%20search_path%3Dapp\n"))
                .isEmpty();
        assertThat(scan("application.properties", "url=jdbc:postgresql://h/db?options=-c%20lock_timeout%3D0\n"))
                .isEmpty();
        assertThat(scan("application.properties", "# url=jdbc:postgresql://h/db?options=-c%20lock_timeout%3D5s\n"))
                .isEmpty();
        assertThat(TimeoutEvidenceScanner.mayHoldEvidence("spring.datasource.url=x".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
    }
}
