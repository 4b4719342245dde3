package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.rule.Names;
import io.github.pgadvisorylint.core.rule.Rule;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
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

    @Parameters(
            index = "0",
            paramLabel = "RULE-ID",
            description = "A rule id, as 'list-rules' prints it, or its SARIF name (WeakLockKeyHash) or suppression"
                    + " form (pg-advisory-lint:weak-lock-key-hash); an unknown id gets the nearest ones.")
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
        Rule rule = lookup(rules, ruleId).orElseThrow(() -> new InputException(unknown(rules, ruleId)));
        PrintWriter out = spec.commandLine().getOut();
        String page = rule.descriptor().helpMarkdown();
        out.print(page.endsWith("\n") ? page : page + "\n");
        out.flush();
        return Main.EXIT_OK;
    }

    /**
     * A rule by what a user may have copied: its id ({@code weak-lock-key-hash}), its SARIF name
     * ({@code WeakLockKeyHash}, as code scanning shows it), or a suppression's form
     * ({@code pg-advisory-lint:weak-lock-key-hash}); case and surrounding blanks do not matter.
     *
     * @return the rule, or empty
     */
    static Optional<Rule> lookup(List<Rule> rules, String given) {
        String key = given.strip();
        int colon = Math.max(key.lastIndexOf(':'), key.lastIndexOf('/'));
        String bare = (colon >= 0 ? key.substring(colon + 1) : key).toLowerCase(Locale.ROOT);
        return rules.stream()
                .filter(r -> r.descriptor().id().equals(bare)
                        || r.descriptor().name().toLowerCase(Locale.ROOT).equals(bare))
                .findFirst();
    }

    /**
     * @return the message for an id no rule has: the nearest id ({@link Names#closest}, the same suggestion
     *     the configuration file gives), else the ids the given text is a fragment of, as "did you mean",
     *     then every known id
     */
    static String unknown(List<Rule> rules, String given) {
        if (rules.isEmpty()) {
            return "unknown rule '" + given + "'. No rules are installed.";
        }
        List<String> ids = rules.stream().map(r -> r.descriptor().id()).toList();
        String bare = given.strip().toLowerCase(Locale.ROOT);
        List<String> near = new ArrayList<>();
        String closest = bare.isEmpty() ? null : Names.closest(bare, ids);
        if (closest != null) {
            near.add(closest);
        } else if (bare.length() >= 4) {
            ids.stream().filter(id -> id.contains(bare)).forEach(near::add); // "pooling", "hash"
        }
        return "unknown rule '" + given + "'."
                + (near.isEmpty() ? "" : " Did you mean " + String.join(" or ", near) + "?")
                + " Known rules: " + String.join(", ", ids);
    }
}
