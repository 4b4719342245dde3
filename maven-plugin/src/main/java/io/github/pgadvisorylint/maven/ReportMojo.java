package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.File;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.reporting.AbstractMavenReport;
import org.apache.maven.reporting.AbstractMavenReportRenderer;
import org.apache.maven.reporting.MavenReportException;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Goal {@code report}: the Maven site page of pg-advisory-lint, as PMD's {@code pmd} and Checkstyle's
 * {@code checkstyle} report goals make theirs. Declare the plugin under {@code <reporting>} and run
 * {@code mvn site}; the page {@code pg-advisory-lint.html} lists each finding with its rule (linked to
 * the rule's documentation page), severity, {@code file:line} and message, then the files the tool
 * could not analyse. It scans what {@code check} scans, with the same configuration file, suppressions
 * and baseline, and never fails the build: a finding is a line of the page, not an error. Every path and
 * message is written as plain text through {@link SiteText}, never as a link pattern.
 */
@Mojo(name = "report", threadSafe = true)
public class ReportMojo extends AbstractMavenReport {

    /** The page's file name without extension: {@code pg-advisory-lint.html}. */
    public static final String OUTPUT_NAME = AbstractLintMojo.REPORT_BASE_NAME;

    /** Skips the report: no page is generated. */
    @Parameter(property = "pgAdvisoryLint.skip", defaultValue = "false")
    boolean skip;

    /** As {@code check}'s {@code includeTests}: also analyses the test source roots and test resources. */
    @Parameter(property = "pgAdvisoryLint.includeTests")
    Boolean includeTests;

    /** As {@code check}'s {@code includes}: globs of files to analyse, relative to the module's base directory. */
    @Parameter(property = "pgAdvisoryLint.includes")
    List<String> includes;

    /** As {@code check}'s {@code excludes}: globs of files not to analyse. */
    @Parameter(property = "pgAdvisoryLint.excludes")
    List<String> excludes;

    /** As {@code check}'s {@code pooling}: {@code auto}, {@code transaction}, {@code statement}, {@code session} or {@code none}. */
    @Parameter(property = "pgAdvisoryLint.pooling")
    String pooling;

    /** As {@code check}'s {@code configFile}: the configuration file; unset, the first one found above the module. */
    @Parameter(property = "pgAdvisoryLint.configFile")
    File configFile;

    /** As {@code check}'s {@code baseline}: findings it holds are left off the page. */
    @Parameter(property = "pgAdvisoryLint.baseline")
    File baseline;

    /** As {@code check}'s {@code threads}: parsing threads; unset, one per processor. */
    @Parameter(property = "pgAdvisoryLint.threads")
    Integer threads;

    /** The build session, handed to the scan (the directory Maven was started in bounds the configuration search). */
    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** This plugin's key ({@code groupId:artifactId}), as {@link Plugin#getKey()} spells it. */
    static final String PLUGIN_KEY = "io.github.pgadvisorylint:pg-advisory-lint-maven-plugin";

    /** Creates the goal; Maven injects the parameters. */
    public ReportMojo() {}

    @Override
    public String getOutputName() {
        return OUTPUT_NAME;
    }

    @Override
    public String getName(Locale locale) {
        return ToolInfo.NAME;
    }

    @Override
    public String getDescription(Locale locale) {
        return "PostgreSQL advisory-lock misuse found by " + ToolInfo.NAME + ".";
    }

    @Override
    public boolean canGenerateReport() {
        return !skip;
    }

    @Override
    protected void executeReport(Locale locale) throws MavenReportException {
        AbstractLintMojo.Scan scan;
        try {
            scan = scan();
        } catch (MojoExecutionException e) {
            throw new MavenReportException(e.getMessage(), e);
        }
        new Page(getSink(), scan == null ? null : scan.result()).render();
    }

    /**
     * The one call into the shared scan: a {@link CheckMojo} configured with this goal's parameters
     * runs {@link AbstractLintMojo#scan()}, so the page holds exactly what {@code check} would report.
     *
     * @return the scan, or null when the module has nothing to scan
     * @throws MojoExecutionException for a configuration error or an internal failure of the analysis
     */
    AbstractLintMojo.Scan scan() throws MojoExecutionException {
        warnBuildOnlyBaseline();
        AbstractLintMojo check = lintGoal();
        check.setLog(getLog());
        check.project = project;
        check.session = session;
        check.includeTests = includeTests;
        check.includes = includes;
        check.excludes = excludes;
        check.pooling = pooling;
        check.configFile = configFile;
        check.baseline = baseline;
        check.threads = threads;
        check.useCache = false;
        return check.scan();
    }

    /** @return the goal whose scan this page shows: {@code check}, on this module */
    AbstractLintMojo lintGoal() {
        return new CheckMojo();
    }

    /**
     * A report reads its configuration from {@code <reporting>} only; a {@code baseline} set for the
     * plugin in {@code <build>} alone would be ignored in silence, so the page would list findings the
     * build leaves out. Logs a warning naming the parameter when that is so.
     */
    private void warnBuildOnlyBaseline() {
        if (baseline != null || project == null || project.getBuild() == null) {
            return;
        }
        Plugin plugin = project.getBuild().getPluginsAsMap().get(PLUGIN_KEY);
        if (plugin == null) {
            return;
        }
        if (configures(plugin.getConfiguration(), "baseline")
                || plugin.getExecutions().stream().anyMatch(e -> configures(e.getConfiguration(), "baseline"))) {
            getLog().warn(ToolInfo.NAME + ": baseline is set for the plugin in <build> but not in <reporting>; the"
                    + " report reads only <reporting>'s configuration, so the page lists every finding. Set"
                    + " <baseline> in the <reporting> plugin's <configuration> too.");
        }
    }

    private static boolean configures(Object configuration, String parameter) {
        return configuration instanceof Xpp3Dom dom && dom.getChild(parameter) != null;
    }

    /** The page: a summary, the findings table, the files not analysed. */
    static final class Page extends AbstractMavenReportRenderer {

        private final AnalysisResult result;

        /**
         * @param sink   where the page is written
         * @param result the scan's result, or null when there was nothing to scan
         */
        Page(Sink sink, AnalysisResult result) {
            super(sink);
            this.result = result;
        }

        @Override
        public String getTitle() {
            return ToolInfo.NAME;
        }

        @Override
        protected void renderBody() {
            startSection(ToolInfo.NAME);
            paragraph("PostgreSQL advisory-lock misuse found by " + ToolInfo.NAME + " " + ToolInfo.version()
                    + ". Each rule links to its documentation page: what it finds, why, and how to fix it.");
            if (result == null) {
                paragraph("Nothing to scan: no Java, SQL or configuration file under the module's source roots.");
                endSection();
                return;
            }
            paragraph(summary(result));
            startSection("Findings");
            if (result.findings().isEmpty()) {
                paragraph("No findings.");
            } else {
                startTable();
                tableHeader(new String[] {"Rule", "Severity", "Location", "Message"});
                for (Finding f : result.findings()) { // sorted by path, line, column, rule
                    sink.tableRow();
                    sink.tableCell();
                    link(ToolInfo.ruleHelpUri(f.ruleId()), f.ruleId());
                    sink.tableCell_();
                    SiteText.cell(sink, f.severity().sarifLevel());
                    SiteText.cell(sink, location(f.region()));
                    SiteText.cell(sink, f.message());
                    sink.tableRow_();
                }
                endTable();
            }
            if (!result.suppressed().isEmpty()) {
                paragraph(plural(result.suppressed().size(), "finding")
                        + " suppressed (in source or by the baseline), not listed.");
            }
            endSection();
            List<Notification> notes = result.notifications();
            if (!notes.isEmpty()) {
                startSection("Files not fully analysed");
                startTable();
                tableHeader(new String[] {"Level", "Location", "Message"});
                for (Notification n : notes) { // sorted by location
                    sink.tableRow();
                    SiteText.cell(sink, n.level().sarifLevel());
                    SiteText.cell(sink, location(n.region()));
                    SiteText.cell(sink, n.message());
                    sink.tableRow_();
                }
                endTable();
                endSection();
            }
            startSection("Rules");
            startTable();
            tableHeader(new String[] {"Rule", "Default severity", "Findings", "What it finds"});
            Map<String, Long> counts = new TreeMap<>();
            result.findings().forEach(f -> counts.merge(f.ruleId(), 1L, Long::sum));
            for (RuleDescriptor d : result.rules()) {
                sink.tableRow();
                sink.tableCell();
                link(ToolInfo.ruleHelpUri(d.id()), d.id());
                sink.tableCell_();
                SiteText.cell(sink, d.defaultSeverity().sarifLevel());
                SiteText.cell(sink, String.valueOf(counts.getOrDefault(d.id(), 0L)));
                SiteText.cell(sink, d.shortDescription());
                sink.tableRow_();
            }
            endTable();
            endSection();
            endSection();
        }

        private static String location(SourceRegion r) {
            return r.path() + ":" + r.startLine();
        }

        /** @return e.g. {@code 2 errors, 1 warning, 0 notes in 14 files.} */
        static String summary(AnalysisResult result) {
            return plural(result.count(Severity.ERROR), "error") + ", "
                    + plural(result.count(Severity.WARNING), "warning") + ", "
                    + plural(result.count(Severity.NOTE), "note") + " in "
                    + plural(result.filesScanned(), "file") + ".";
        }

        private static String plural(long n, String noun) {
            return n + " " + noun + (n == 1 ? "" : "s");
        }
    }
}
