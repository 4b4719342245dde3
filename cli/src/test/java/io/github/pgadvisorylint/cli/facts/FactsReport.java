package io.github.pgadvisorylint.cli.facts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The figures the facts suite measured, one tab-separated line each (version, fact, what, figure), appended to
 * {@code facts.tsv} in the directory named by the system property {@value #REPORT_PROPERTY}
 * ({@code cli/target/postgres-facts} under Maven) and printed on standard output. The rule pages quote them.
 */
public final class FactsReport {

    /** System property: the directory of {@code facts.tsv}. */
    public static final String REPORT_PROPERTY = "pgadvisorylint.postgres.report";

    private static boolean started;

    private FactsReport() {}

    /**
     * @param server the server measured
     * @param fact   e.g. {@code F8}
     * @param what   what was measured, e.g. the plan shape
     * @param figure the figure, e.g. {@code 10000 locks for 1 row}
     */
    public static synchronized void record(PostgresServer server, String fact, String what, String figure) {
        String line = server.serverVersion() + "\t" + fact + "\t" + what + "\t" + figure;
        System.out.println("[postgres-facts] " + line.replace('\t', ' '));
        String dir = System.getProperty(REPORT_PROPERTY);
        if (dir == null) {
            return;
        }
        try {
            Path d = Files.createDirectories(Path.of(dir));
            if (!started) {
                Files.deleteIfExists(d.resolve("facts.tsv")); // one test run's figures, not every earlier run's
                started = true;
            }
            Files.writeString(
                    d.resolve("facts.tsv"),
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
