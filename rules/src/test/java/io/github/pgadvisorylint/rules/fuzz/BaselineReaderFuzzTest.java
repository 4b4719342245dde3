package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.baseline.Baseline;
import io.github.pgadvisorylint.core.baseline.BaselineException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The baseline file: a baseline of entries holding any text is written and read back equal, and
 * mutated baseline files (and random bytes) give a baseline or a {@link BaselineException} naming the
 * file, never anything else, the same way twice.
 */
@AddLifecycleHook(FuzzBudget.class)
class BaselineReaderFuzzTest {

    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws Exception {
        dir = Files.createTempDirectory("baseline-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws Exception {
        Trees.delete(dir);
    }

    @Provide
    Arbitrary<Baseline> baselines() {
        Arbitrary<Baseline.Entry> entry = Combinators.combine(
                        Hostile.ruleId(), Hostile.nonBlank(), Hostile.nonBlank(), Hostile.text())
                .as(Baseline.Entry::new);
        return entry.list().ofMaxSize(6).map(Baseline::new);
    }

    @Property(tries = 150, seed = "2707008")
    void aWrittenBaselineReadsBackEqual(@ForAll("baselines") Baseline baseline) throws Exception {
        Path file = dir.resolve("round-trip.json");
        Baseline read = Guard.call(baseline.toString(), () -> {
            baseline.write(file);
            return Baseline.read(file);
        });
        assertThat(read)
                .isEqualTo(new Baseline(baseline.entries().stream()
                        .map(e -> new Baseline.Entry(
                                Hostile.wellFormed(e.ruleId()),
                                Hostile.wellFormed(e.path()),
                                Hostile.wellFormed(e.fingerprint()),
                                Hostile.wellFormed(e.message())))
                        .toList()));
    }

    @Provide
    Arbitrary<byte[]> baselineBytes() {
        List<byte[]> seeds = new ArrayList<>();
        seeds.add("{\"version\": 1, \"tool\": \"pg-advisory-lint\", \"findings\": []}\n"
                .getBytes(StandardCharsets.UTF_8));
        seeds.add(("{\"version\": 1, \"findings\": [{\"ruleId\": \"lock-in-limit-query\", \"path\": \"src/A.java\","
                        + " \"fingerprint\": \"00aa\", \"message\": \"m\"}, {\"ruleId\": \"x\", \"path\": \"p\","
                        + " \"fingerprint\": \"f\"}]}")
                .getBytes(StandardCharsets.UTF_8));
        seeds.add("[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]".getBytes(StandardCharsets.UTF_8));
        return Arbitraries.oneOf(
                Mutations.mutatedBytes(seeds),
                baselines().map(b -> b.toJson().getBytes(StandardCharsets.UTF_8)),
                Combinators.combine(baselines(), Mutations.noise(), Mutations.fraction())
                        .as((b, n, at) -> {
                            String json = b.toJson();
                            int i = (int) (json.length() * at);
                            return (json.substring(0, i) + n + json.substring(i)).getBytes(StandardCharsets.UTF_8);
                        }));
    }

    private static Object read(Path file, byte[] bytes) throws Exception {
        try {
            return Guard.call(new String(bytes, StandardCharsets.UTF_8), () -> Baseline.read(file));
        } catch (BaselineException e) {
            assertThat(e.getMessage()).startsWith(file.toString());
            return "BaselineException: " + e.getMessage();
        }
    }

    @Property(tries = 300, seed = "2707009")
    void bytesGiveABaselineOrABaselineException(@ForAll("baselineBytes") byte[] bytes) throws Exception {
        Path file = dir.resolve("baseline.json");
        Files.write(file, bytes);
        Object once = read(file, bytes);
        Object again = read(file, bytes);
        assertThat(again).isEqualTo(once);
        Statistics.label("outcome").collect(once instanceof Baseline ? "read" : "refused");
        Statistics.label("outcome").coverage(c -> {
            c.check("read").percentage(p -> p >= 5);
            c.check("refused").percentage(p -> p >= 30);
        });
    }
}
