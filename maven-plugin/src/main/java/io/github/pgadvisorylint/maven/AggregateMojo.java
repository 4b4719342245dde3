package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoExecution;
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
 * scan root). Bound to {@code verify} by default.
 *
 * <p>Bound in a parent POM, the execution is inherited by every module and the analysis runs once, at
 * the end of the reactor: each module's execution marks the module as reached, and the execution that
 * finds every module binding the goal reached runs the analysis (in a sequential build, the last one),
 * so every module is compiled and tested first, as with JaCoCo's {@code report-aggregate}. A module
 * that fails stops the build before it. Paths the parent POM gave relative to the project
 * ({@code ${project.build.directory}} for the reports and the cache, {@code ${project.basedir}} for the
 * baseline and the configuration file) are taken relative to the top-level project, where they were
 * written. Run from the command line ({@code mvn pg-advisory-lint:aggregate}), the goal runs once, in
 * the top-level project, before anything is built. With {@code <inherited>false</inherited>} it runs in
 * the top-level project only, that is first; a line in the log says so.
 *
 * <p>It is not a Maven aggregator goal: an aggregator bound in a parallel build ({@code -T}) is run one
 * module at a time, with a warning per module; this goal reads the reactor's projects from the session
 * itself and never needs that.
 */
@Mojo(name = "aggregate", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class AggregateMojo extends AbstractLintMojo {

    /** Per build (its request): the ids of the reactor's projects whose execution of this goal was reached. */
    private static final Map<Object, Set<String>> REACHED = new WeakHashMap<>();

    /** Creates the goal; Maven injects the parameters. */
    public AggregateMojo() {}

    @Override
    boolean notThisProject() {
        MavenProject top = topLevel();
        List<MavenProject> projects = reactor();
        boolean fromCommandLine = mojoExecution != null && mojoExecution.getSource() == MojoExecution.Source.CLI;
        if (top == null || projects.size() <= 1 || fromCommandLine) {
            if (top != null && !top.getBasedir().equals(project.getBasedir())) {
                getLog().info(ToolInfo.NAME + ": aggregate runs once, in " + top.getArtifactId()
                        + "; nothing to do here");
                return true;
            }
            return false;
        }
        String key = pluginKey();
        List<MavenProject> binding = projects.stream()
                .filter(p -> p == project || bindsAggregate(p, key))
                .toList();
        List<String> waiting;
        synchronized (REACHED) {
            Set<String> reached = REACHED.computeIfAbsent(buildKey(), k -> new HashSet<>());
            if (!reached.add(project.getId())) {
                return true;
            }
            waiting = binding.stream()
                    .filter(p -> !reached.contains(p.getId()))
                    .map(MavenProject::getArtifactId)
                    .toList();
        }
        if (!waiting.isEmpty()) {
            getLog().info(ToolInfo.NAME + ": aggregate runs once, after the reactor's last module that binds it;"
                    + " waiting for " + waiting.size() + " more ("
                    + String.join(", ", waiting.subList(0, Math.min(3, waiting.size())))
                    + (waiting.size() > 3 ? ", ..." : "") + ")");
            return true;
        }
        if (binding.size() == 1 && projects.get(projects.size() - 1) != project) {
            getLog().info(
                            ToolInfo.NAME + ": aggregate runs in " + project.getArtifactId() + " before the reactor's"
                                    + " other modules are built; bind it without <inherited>false</inherited> to run it after the last one");
        }
        return false;
    }

    /** @return {@code " in the reactor's N projects"}: the failure is reported on the module the analysis ran in */
    @Override
    String scopeWords() {
        int n = reactor().size();
        return n > 1 ? " in the reactor's " + n + " projects" : "";
    }

    @Override
    MavenProject home() {
        MavenProject top = topLevel();
        return top == null || top.getBasedir() == null ? project : top;
    }

    @Override
    Scope scope() throws MojoExecutionException {
        List<MavenProject> projects = reactor();
        List<SourceSelection.Module> modules = new ArrayList<>();
        List<Path> basedirs = new ArrayList<>();
        for (MavenProject p : projects) {
            modules.add(module(p));
            basedirs.add(p.getBasedir().toPath());
        }
        Path root = home().getBasedir().toPath().toAbsolutePath().normalize();
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

    private List<MavenProject> reactor() {
        List<MavenProject> projects = session == null ? null : session.getProjects();
        return projects == null || projects.isEmpty() ? List.of(project) : projects;
    }

    private Object buildKey() {
        return session.getRequest() != null ? session.getRequest() : session;
    }

    /** @return {@code groupId:artifactId} of this plugin, as {@link Plugin#getKey()} spells it; the constant outside Maven */
    private String pluginKey() {
        if (mojoExecution != null && mojoExecution.getMojoDescriptor() != null) {
            return mojoExecution.getMojoDescriptor().getPluginDescriptor().getPluginLookupKey();
        }
        return ReportMojo.PLUGIN_KEY;
    }

    /** @return whether {@code p}'s build runs this plugin's {@code aggregate} goal in some execution */
    private static boolean bindsAggregate(MavenProject p, String key) {
        Plugin plugin =
                p.getBuild() == null ? null : p.getBuild().getPluginsAsMap().get(key);
        if (plugin == null) {
            return false;
        }
        for (PluginExecution execution : plugin.getExecutions()) {
            if (execution.getGoals().contains("aggregate")) {
                return true;
            }
        }
        return false;
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
