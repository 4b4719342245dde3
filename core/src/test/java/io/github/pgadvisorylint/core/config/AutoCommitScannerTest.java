package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The main pool's auto-commit default, read from properties and YAML ({@link AutoCommitScanner}). */
class AutoCommitScannerTest {

    private static List<AutoCommitSetting> scan(String path, String text) {
        return new AutoCommitScanner().scan(new SourceFile(path, text));
    }

    @Test
    void springBootPropertiesWithRelaxedBinding() {
        assertThat(scan(
                        "application.properties",
                        "spring.datasource.url=jdbc:postgresql://db/app\n"
                                + "spring.datasource.hikari.autoCommit = false\n"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.autoCommit()).isFalse();
                    assertThat(s.description()).isEqualTo("spring.datasource.hikari.autoCommit=false");
                    assertThat(s.region().startLine()).isEqualTo(2);
                });
        assertThat(scan("application.properties", "Spring.DataSource.Hikari.Auto_Commit: true\n"))
                .singleElement()
                .satisfies(s -> assertThat(s.autoCommit()).isTrue());
    }

    @Test
    void nestedAndDottedYamlKeysAcrossDocuments() {
        String yaml = """
                spring:
                  datasource:
                    hikari:
                      auto-commit: false
                ---
                spring.datasource.dbcp2:
                  default-auto-commit: "true"
                """;
        assertThat(scan("application.yml", yaml))
                .extracting(AutoCommitSetting::autoCommit, s -> s.region().startLine())
                .containsExactly(tuple(false, 4), tuple(true, 7));
    }

    @Test
    void micronautHikariFileAndPlaceholderDefaults() {
        assertThat(scan("application.yml", "datasources:\n  default:\n    auto-commit: ${DB_AUTO_COMMIT:false}\n"))
                .singleElement()
                .satisfies(s -> assertThat(s.autoCommit()).isFalse());
        assertThat(scan("src/main/resources/hikari.properties", "jdbcUrl=jdbc:postgresql://db/app\nautoCommit=false\n"))
                .singleElement()
                .satisfies(s -> assertThat(s.region().startLine()).isEqualTo(2));
    }

    @Test
    void otherPoolsCommentsUnknownValuesAndOtherFilesSayNothing() {
        assertThat(scan("application.properties", "spring.datasource.reporting.hikari.auto-commit=false\n"))
                .isEmpty();
        assertThat(scan("application.properties", "# spring.datasource.hikari.auto-commit=false\n"))
                .isEmpty();
        assertThat(scan("application.properties", "spring.datasource.hikari.auto-commit=${DB_AUTO_COMMIT}\n"))
                .isEmpty();
        assertThat(scan("application.properties", "autoCommit=false\n"))
                .as("not a Hikari file")
                .isEmpty();
        assertThat(scan("pom.xml", "<autoCommit>false</autoCommit>")).isEmpty();
    }

    @Test
    void brokenYamlGivesNothingAndDoesNotThrow() {
        assertThat(scan("application.yml", "spring:\n  datasource: [unclosed\n    hikari:\n"))
                .isEmpty();
        assertThat(scan("application.yml", "a: " + "[".repeat(5_000))).isEmpty();
    }
}
