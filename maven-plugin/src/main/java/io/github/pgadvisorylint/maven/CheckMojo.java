package io.github.pgadvisorylint.maven;

import java.util.List;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * Goal {@code check}: analyses one module's compile source roots and resource directories (and the
 * test ones with {@code includeTests}) for advisory-lock misuse, writes {@code pg-advisory-lint.sarif}
 * into {@code outputDirectory}, prints the findings and fails the build when one is at or above
 * {@code failOnSeverity}. Paths are relative to the path base ({@code pathBase}, else the git root, else
 * the reactor's root directory). Source roots inside the build directory (generated sources) are not
 * scanned. Bound to {@code verify} by default.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends AbstractLintMojo {

    /** Creates the goal; Maven injects the parameters. */
    public CheckMojo() {}

    @Override
    Scope scope() {
        SourceSelection.Module module = module(project);
        return new Scope(module.basedir(), List.of(module));
    }
}
