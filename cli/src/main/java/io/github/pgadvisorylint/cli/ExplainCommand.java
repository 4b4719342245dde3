package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code explain RULE-ID}: prints the rule's documentation page (Markdown). */
@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Prints a rule's documentation: what it finds, why it matters, bad and good examples,"
                + " how to suppress it.")
final class ExplainCommand implements Callable<Integer> {

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RULE-ID", description = "A rule id, as 'list-rules' prints it.")
    private String ruleId;

    /** @param env where the rules come from */
    ExplainCommand(Environment env) {
        this.env = env;
    }

    /**
     * @return {@link Main#EXIT_OK}
     * @throws InputException for an unknown id, listing the known ones (exit code 2)
     */
    @Override
    public Integer call() {
        List<Rule> rules = env.rules().get();
        Rule rule = RuleRegistry.find(rules, ruleId.trim())
                .orElseThrow(() -> new InputException("unknown rule '" + ruleId + "'. "
                        + (rules.isEmpty()
                                ? "No rules are installed."
                                : "Known rules: "
                                        + rules.stream()
                                                .map(r -> r.descriptor().id())
                                                .collect(Collectors.joining(", ")))));
        PrintWriter out = spec.commandLine().getOut();
        String page = rule.descriptor().helpMarkdown();
        out.print(page.endsWith("\n") ? page : page + "\n");
        out.flush();
        return Main.EXIT_OK;
    }
}
