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

    /** Surefire sets {@code basedir} to the module directory; the working directory is the fallback. */
    static Path exampleProject() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        for (Path dir = module; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("examples/invoice-service");
            if (Files.isDirectory(candidate)) {
                return candidate.normalize();
            }
        }
        throw new IllegalStateException("examples/invoice-service not found above " + module);
    }

    @Test
    void invoiceService() {
        Path project = exampleProject();
        assertThat(project.resolve("src/main/java")).isDirectory();
        FixtureHarness.verifyAllMarked(project);
    }
}
