import io.github.pgadvisorylint.core.java.JavaFrontEnd;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The reference for bench/run.sh: JavaParser alone, with the configuration the tool parses with,
 * on the Java files of a tree that mention "advisory" (the files the tool parses as candidates),
 * on as many threads as the tool uses. Prints "files lines seconds" for the parse alone (reading
 * included, as the tool reads too). Run with the launcher's JVM flags:
 *
 *   java -cp cli/target/pg-advisory-lint.jar bench/ParseOnly.java DIR [THREADS]
 */
public final class ParseOnly {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).sorted().toList();
        }
        JavaFrontEnd frontEnd = new JavaFrontEnd(new SqlAnalyzer());
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> lines = new ArrayList<>();
        for (Path p : files) {
            lines.add(pool.submit(() -> {
                String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
                if (!text.toLowerCase(Locale.ROOT).contains("advisory")) {
                    return -1;
                }
                frontEnd.parse(new SourceFile(root.relativize(p).toString(), text));
                return (int) text.lines().count();
            }));
        }
        int parsed = 0;
        long total = 0;
        for (Future<Integer> f : lines) {
            int n = f.get();
            if (n >= 0) {
                parsed++;
                total += n;
            }
        }
        pool.shutdown();
        System.out.printf(Locale.ROOT, "%d %d %.2f%n", parsed, total, (System.nanoTime() - started) / 1e9);
    }
}
