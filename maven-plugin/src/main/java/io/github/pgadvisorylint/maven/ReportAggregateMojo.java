package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.util.Locale;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.project.MavenProject;

/**
 * Goal {@code report-aggregate}: the Maven site page of pg-advisory-lint for the whole reactor, as
 * Javadoc's {@code aggregate} report makes one page for every module. Declare it under the parent's
 * {@code <reporting>} and run {@code mvn site}: the top-level project's site gets
 * {@code pg-advisory-lint.html} with what goal {@code aggregate} finds (every module analysed together,
 * paths relative to the path base); the modules get no page from it. Like {@code report}, it never
 * fails the build.
 */
@Mojo(name = "report-aggregate", aggregator = true, threadSafe = true)
public class ReportAggregateMojo extends ReportMojo {

    /** Creates the goal; Maven injects the parameters. */
    public ReportAggregateMojo() {}

    @Override
    public String getDescription(Locale locale) {
        return "PostgreSQL advisory-lock misuse found by " + ToolInfo.NAME + " in every module of the build.";
    }

    /** @return true in the reactor's top-level project only (and when not skipped) */
    @Override
    public boolean canGenerateReport() {
        MavenProject top = session == null ? null : session.getTopLevelProject();
        return super.canGenerateReport()
                && (top == null || project == null || top.getBasedir().equals(project.getBasedir()));
    }

    @Override
    AbstractLintMojo lintGoal() {
        return new AggregateMojo();
    }
}
