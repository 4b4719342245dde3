package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs the command line in-process against hand-built analysis results. */
final class CliHarness {

    /** What one invocation printed and returned. */
    record Run(int exitCode, String out, String err) {}

    /** The arguments the engine was called with. */
    record Call(Path root, List<Path> targets, int threads) {}

    final Path cwd;
    final List<Call> calls = new ArrayList<>();
    private final List<Rule> rules;
    private AnalysisResult result;
    private RuntimeException failure;

    CliHarness(Path cwd, List<Rule> rules, AnalysisResult result) {
        this.cwd = cwd;
        this.rules = rules;
        this.result = result;
    }

    CliHarness failWith(RuntimeException e) {
        this.failure = e;
        return this;
    }

    Run run(String... args) {
        Environment env = new Environment(
                () -> rules,
                (root, targets, threads, rs) -> {
                    calls.add(new Call(root, targets, threads));
                    if (failure != null) {
                        throw failure;
                    }
                    return result;
                },
                cwd);
        CommandLine cli = Main.commandLine(env);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * Runs the command line with the real rules and analyzer ({@link Environment#standard()}).
     *
     * @param cwd  the working directory
     * @param args the command line
     * @return exit code and what was printed
     */
    static Run real(Path cwd, String... args) {
        Environment standard = Environment.standard();
        CommandLine cli = Main.commandLine(new Environment(standard.rules(), standard.engine(), cwd));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * Runs the command line with the real analyzer but only test rules, for tests of the command line's
     * plumbing (options, files, caches, exit codes): {@link TestOnlyRule}, which never reports, and
     * {@link #ACQUISITION_RULE}, a warning at every acquisition. Adding a rule to the catalog changes
     * nothing here.
     *
     * @param cwd  the working directory
     * @param args the command line
     * @return exit code and what was printed
     */
    static Run plumbing(Path cwd, String... args) {
        Environment env =
                new Environment(CliHarness::testRules, Environment.standard().engine(), cwd);
        CommandLine cli = Main.commandLine(env);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** The id of the test rule that reports a warning at every lock acquisition. */
    static final String ACQUISITION_RULE = "test-acquisition";

    /** @return the rules {@link #plumbing} runs: {@link TestOnlyRule} and the acquisition rule */
    static List<Rule> testRules() {
        RuleDescriptor d = new RuleDescriptor(
                ACQUISITION_RULE,
                RuleDescriptor.pascalCase(ACQUISITION_RULE),
                Severity.WARNING,
                "Every lock acquisition.",
                "A test rule: a warning at each acquisition.",
                "# " + ACQUISITION_RULE + "\n",
                List.of("test"));
        Rule acquisitions = new Rule() {
            @Override
            public RuleDescriptor descriptor() {
                return d;
            }

            @Override
            public void check(RuleContext context) {
                for (LockSite site : context.model().acquisitions()) {
                    context.report(Severity.WARNING, site, site.display() + " is an acquisition.", List.of());
                }
            }
        };
        return List.of(new TestOnlyRule(), acquisitions);
    }

    static Rule rule(String id, Severity severity, String shortDescription) {
        RuleDescriptor d = new RuleDescriptor(
                id,
                RuleDescriptor.pascalCase(id),
                severity,
                shortDescription,
                "Full description of " + id + ".",
                "# " + id + "\n\nWhy it matters.\n",
                List.of("correctness"));
        return new Rule() {
            @Override
            public RuleDescriptor descriptor() {
                return d;
            }

            @Override
            public void check(RuleContext context) {}
        };
    }

    static List<Rule> rules() {
        return List.of(
                rule("duplicate-lock-key", Severity.WARNING, "Two unrelated locks share a key."),
                rule(
                        "session-lock-under-transaction-pooling",
                        Severity.ERROR,
                        "Session lock behind a transaction-pooling PgBouncer."));
    }

    static Finding finding(Severity severity, String path, int line) {
        return new Finding(
                severity == Severity.ERROR ? "session-lock-under-transaction-pooling" : "duplicate-lock-key",
                severity,
                "A " + severity.sarifLevel() + " finding.",
                new SourceRegion(path, line, 5, line, 20),
                severity == Severity.ERROR
                        ? List.of(
                                new RelatedLocation(SourceRegion.line("pgbouncer.ini", 3), "pool_mode = transaction."))
                        : List.of(),
                "fp-" + severity.sarifLevel() + "-" + line);
    }

    static AnalysisResult result(List<Finding> findings, List<Notification> notifications) {
        return new AnalysisResult(
                Path.of("."),
                rules().stream().map(Rule::descriptor).toList(),
                findings,
                notifications,
                new LockModel(List.of(), List.of()),
                7,
                2,
                1234);
    }

    static AnalysisResult result(Finding... findings) {
        return result(List.of(findings), List.of());
    }
}
