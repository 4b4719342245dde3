package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.report.LockOrderDiagram;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code graph [PATH...]}: the project's lock order (which key is taken while which is held, and
 * where) as Graphviz DOT or Mermaid, drawn from the model's lock-order graph, with the edges of its
 * strongly connected components (the possible deadlocks that {@code unordered-multi-key-lock}
 * reports) in red. Runs no rule; exits 0 unless the command line or the input is wrong (2).
 */
@Command(
        name = "graph",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Draws the lock-order graph: one node per key (constant, value, or expression when not"
                    + " known statically), an edge A -> B when B is taken while A is held, labelled with the methods"
                    + " that do it. Dashed: the second lock is a try-lock (it never waits). Red: the edge is on a cycle"
                    + " of waiting acquisitions (a strongly connected component of the graph), a possible deadlock:"
                    + " the cycles that unordered-multi-key-lock reports as errors.",
            "The scan root is PATH when exactly one directory is given, else the current directory."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the graph was written",
            "2:usage or input error: bad option or value, no such path, unwritable output",
            "3:internal error: a bug, please report it (--debug prints the stack trace)"
        },
        footer = {
            "%nExamples:",
            "  pg-advisory-lint graph . | dot -Tsvg > lock-order.svg",
            "  pg-advisory-lint graph --format mermaid --output lock-order.mmd src"
        })
final class GraphCommand implements Callable<Integer> {

    /** Converts {@code dot|mermaid}, any case. */
    static final class FormatConverter implements ITypeConverter<LockOrderDiagram.Format> {
        @Override
        public LockOrderDiagram.Format convert(String value) {
            try {
                return LockOrderDiagram.Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of dot, mermaid");
            }
        }
    }

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelCommand.Options options = new ModelCommand.Options();

    @Option(
            names = {"-f", "--format"},
            paramLabel = "FORMAT",
            converter = FormatConverter.class,
            defaultValue = "dot",
            description = "Output format: dot or mermaid (default: ${DEFAULT-VALUE}).")
    private LockOrderDiagram.Format format;

    /** @param env the analysis and the working directory */
    GraphCommand(Environment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        return ModelCommand.run(spec, env, options, result -> {
            LockOrderDiagram graph = LockOrderDiagram.of(result.model());
            if (graph.isEmpty()) {
                // an empty drawing alone reads like a failure: say why it is empty, on standard error
                PrintWriter err = spec.commandLine().getErr();
                int acquisitions = result.model().acquisitions().size();
                err.println(ToolInfo.NAME + ": the lock-order graph has no edges"
                        + (acquisitions == 0
                                ? ": no advisory-lock acquisition was found"
                                : acquisitions == 1
                                        ? ": the one advisory-lock acquisition found is never taken while another"
                                                + " lock is held"
                                        : ": none of the " + acquisitions + " advisory-lock acquisitions found is"
                                                + " taken while another lock is held")
                        + " (keys appear in the graph only on an edge; `keys` lists them all)");
                err.flush();
            }
            return out -> graph.write(format, out);
        });
    }
}
