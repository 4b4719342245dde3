package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.project.MavenProject;

/**
 * Goal {@code aggregate}: analyses the sources of every project in the reactor together, so facts
 * from one module (an unlock helper, a lock key) count for another, and writes one report for the
 * whole build into the top-level project's {@code outputDirectory}. The scan root is the top-level
 * project's base directory (or the deepest directory containing every module, when a module lies
 * outside it); paths are relative to the path base ({@code pathBase}, else the git root, else the
 * scan root). Bound to {@code verify} by default; it reads only sources, so it may run before the
 * modules are built.
 *
 * <p>When bound in a parent POM it is inherited by every module; it then runs only in the
 * top-level project of the reactor ({@link org.apache.maven.execution.MavenSession#getTopLevelProject()})
 * and does nothing elsewhere. Declaring the execution with {@code <inherited>false</inherited>}
 * avoids the extra no-op executions.
 */
@Mojo(name = "aggregate", defaultPhase = LifecyclePhase.VERIFY, aggregator = true, threadSafe = true)
public class AggregateMojo extends AbstractLintMojo {

    /** Creates the goal; Maven injects the parameters. */
    public AggregateMojo() {}

    @Override
    boolean notThisProject() {
        MavenProject top = topLevel();
        if (top != null && !top.getBasedir().equals(project.getBasedir())) {
            getLog().info(ToolInfo.NAME + ": aggregate runs once, in " + top.getArtifactId() + "; nothing to do here");
            return true;
        }
        return false;
    }

    @Override
    Scope scope() throws MojoExecutionException {
        List<MavenProject> projects = session.getProjects();
        if (projects == null || projects.isEmpty()) {
            projects = List.of(project);
        }
        List<SourceSelection.Module> modules = new ArrayList<>();
        List<Path> basedirs = new ArrayList<>();
        for (MavenProject p : projects) {
            modules.add(module(p));
            basedirs.add(p.getBasedir().toPath());
        }
        Path root = project.getBasedir().toPath().toAbsolutePath().normalize();
        if (!basedirs.stream().allMatch(b -> b.toAbsolutePath().normalize().startsWith(root))) {
            basedirs.add(root);
            Path common = SourceSelection.commonAncestor(basedirs);
            if (common == null) {
                throw new MojoExecutionException(ToolInfo.NAME + ": the reactor's modules share no common"
                        + " directory, so no scan root can hold them all");
            }
            getLog().info(ToolInfo.NAME + ": a module lies outside " + root + "; paths are relative to " + common);
            return new Scope(common, modules);
        }
        return new Scope(root, modules);
    }

    private MavenProject topLevel() {
        if (session == null) {
            return null;
        }
        MavenProject top = session.getTopLevelProject();
        if (top == null
                && session.getProjects() != null
                && !session.getProjects().isEmpty()) {
            top = session.getProjects().get(0);
        }
        return top;
    }
}
