package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code list-rules}: one line per installed rule, sorted by id, in aligned columns; a rule that runs only
 * when the configuration switches it on says "(off by default)".
 */
@Command(
        name = "list-rules",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Lists the installed rules: id, default severity, short description.")
final class ListRulesCommand implements Callable<Integer> {

    private final Environment env;

    @Spec
    private CommandSpec spec;

    /** @param env where the rules come from */
    ListRulesCommand(Environment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Rule> rules = env.rules().get();
        if (rules.isEmpty()) {
            spec.commandLine().getErr().println("No rules are installed.");
            return Main.EXIT_OK;
        }
        int idWidth =
                rules.stream().mapToInt(r -> r.descriptor().id().length()).max().orElse(0);
        for (Rule rule : rules) {
            RuleDescriptor d = rule.descriptor();
            out.println(String.format(
                            "%-" + idWidth + "s  %-7s  %s",
                            d.id(),
                            d.defaultSeverity().sarifLevel(),
                            d.shortDescription() + (d.enabledByDefault() ? "" : " (off by default)"))
                    .stripTrailing());
        }
        out.flush();
        return Main.EXIT_OK;
    }
}
