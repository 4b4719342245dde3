package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.fixtures.Expectation;
import io.github.pgadvisorylint.fixtures.Expectations;
import io.github.pgadvisorylint.fixtures.FixtureDiff;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/new-rule} on a copy of the files it touches: it writes the four files of a rule, the
 * README row and the copy of the page under {@code docs/rules/}, the class compiles against today's
 * core and loads its page, the page passes the metadata checks, and the fixture holds one firing and
 * one silent case that the unfinished rule fails (so a scaffold cannot pass the suite before it is
 * written). Fails when core moves under it.
 */
class NewRuleScriptTest {

    private static final String ID = "scaffold-probe";
    private static final String SERVICES = "rules/src/main/resources/META-INF/services";

    @Test
    void writesTheFourFilesAndTheReadmeRow(@TempDir Path tmp) throws Exception {
        Path repo = FixtureHarness.repositoryRoot();
        Path root = tmp.resolve("checkout");
        copy(repo, root, "scripts/new-rule");
        copy(repo, root, "README.md");
        Path services = repo.resolve(SERVICES);
        List<Path> serviceFiles;
        try (var s = Files.list(services)) {
            serviceFiles = s.toList();
        }
        assertThat(serviceFiles).hasSize(1);
        String serviceName = serviceFiles.get(0).getFileName().toString();
        copy(repo, root, SERVICES + "/" + serviceName);

        Run run = run(root, ID, "warning");
        assertThat(run.code).as(run.output).isZero();
        assertThat(run.output).contains("Wrote the rule " + ID + " (warning)").contains("Next:");

        Path classFile = root.resolve("rules/src/main/java/io/github/pgadvisorylint/rules/ScaffoldProbeRule.java");
        Path resources = root.resolve("rules/src/main/resources");
        Path fixture = root.resolve("rules/src/test/resources/fixtures/" + ID);
        assertThat(classFile).isRegularFile();
        assertThat(resources.resolve("docs/" + ID + ".md")).isRegularFile();
        assertThat(root.resolve(RuleDocsMirrorTest.MIRROR + "/" + ID + ".md"))
                .hasSameBinaryContentAs(resources.resolve("docs/" + ID + ".md"));

        List<String> before = Files.readAllLines(services.resolve(serviceName));
        List<String> after = Files.readAllLines(root.resolve(SERVICES + "/" + serviceName));
        List<String> expected = new ArrayList<>(before);
        expected.add("io.github.pgadvisorylint.rules.ScaffoldProbeRule");
        expected.sort(null);
        assertThat(after).containsExactlyElementsOf(expected);

        assertThat(Files.readString(root.resolve("README.md"))).contains("| `" + ID + "` | warning | ");
        assertThat(Files.readString(root.resolve("README.md"))
                        .replace(
                                "| `" + ID + "` | warning | [<what it finds, " + "one line>](docs/rules/" + ID
                                        + ".md) |\n",
                                ""))
                .isEqualTo(Files.readString(repo.resolve("README.md")));

        Expectations cases = Expectations.parse(fixture);
        assertThat(cases.all()).extracting(Expectation::ruleId).containsExactly(ID);
        assertThat(cases.silentCases()).hasSize(1);

        Rule rule = compileAndLoad(classFile, resources, tmp.resolve("classes"));
        assertThat(rule.descriptor().id()).isEqualTo(ID);
        assertThat(rule.descriptor().defaultSeverity()).isEqualTo(Severity.WARNING);
        RuleMetadataTest.className(rule);
        RuleMetadataTest.page(rule.descriptor());

        AnalysisResult result = Analyzer.builder().rules(List.of(rule)).build().analyze(fixture, List.of(fixture));
        FixtureDiff diff = FixtureDiff.compare(cases.restrictTo(Set.of(ID)), result.findings());
        assertThat(diff.problems())
                .extracting(FixtureDiff.Problem::kind)
                .containsExactly(FixtureDiff.ProblemKind.MISSING);

        Run again = run(root, ID, "warning");
        assertThat(again.code).isEqualTo(1);
        assertThat(again.output).contains("already exists");
        assertThat(run(root, "Not_Kebab", "note").code).isEqualTo(2);
        assertThat(run(root, "another-rule", "fatal").code).isEqualTo(2);
    }

    private record Run(int code, String output) {}

    private static Run run(Path root, String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of("sh", root.resolve("scripts/new-rule").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), output);
    }

    private static void copy(Path from, Path to, String path) throws IOException {
        Files.createDirectories(to.resolve(path).getParent());
        Files.copy(from.resolve(path), to.resolve(path));
    }

    private static Rule compileAndLoad(Path source, Path resources, Path classes) throws Exception {
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int code = javac.run(
                null,
                null,
                null,
                "-d",
                classes.toString(),
                "-classpath",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "--release",
                "17",
                source.toString());
        assertThat(code).as("javac of the generated rule").isZero();
        URLClassLoader loader = new URLClassLoader(
                new URL[] {classes.toUri().toURL(), resources.toUri().toURL()},
                NewRuleScriptTest.class.getClassLoader());
        return (Rule) loader.loadClass("io.github.pgadvisorylint.rules.ScaffoldProbeRule")
                .getConstructor()
                .newInstance();
    }
}
