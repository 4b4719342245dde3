package io.github.pgadvisorylint.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * Prints the help of the tool and of every command to nowhere, in a JVM of its own, so that a test sees what
 * picocli's tracer writes to that JVM's standard error ({@code [picocli WARN]} lines). Exits 1 when a help
 * fails.
 */
final class HelpProbe {

    private HelpProbe() {}

    public static void main(String[] args) {
        CommandLine root = Main.commandLine(Environment.standard());
        int failures = root.execute("--help") == 0 ? 0 : 1;
        for (String name : root.getSubcommands().keySet()) {
            CommandLine cli = Main.commandLine(Environment.standard());
            cli.setOut(new PrintWriter(new StringWriter()));
            failures += cli.execute(name, "--help") == 0 ? 0 : 1;
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
