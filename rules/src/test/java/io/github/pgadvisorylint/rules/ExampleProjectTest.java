package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The bundled example project {@code examples/invoice-service/} is checked for every rule its
 * markers name, like a fixture.
 */
class ExampleProjectTest {


    @Test
    void invoiceService() {
        Path project = FixtureHarness.exampleProject();
        assertThat(project.resolve("src/main/java")).isDirectory();
        FixtureHarness.verifyAllMarked(project);
    }
}
