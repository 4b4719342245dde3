package io.github.pgadvisorylint.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19, the hostile inputs that broke the Maven plugin: a glob of many stars (hung {@code mvn -T 4
 * verify}), one method taking 300 keys and then the same keys in reverse (killed after 421 s), and a
 * configuration file nested 5,000 levels deep (a bare {@code StackOverflowError}). The timeout guards
 * against the hangs; it is not a benchmark.
 */
@Timeout(180)
class HostileInputMojoTest {

    @TempDir
    Path dir;

    private final CheckMojoTest.RecordingLog log = new CheckMojoTest.RecordingLog();

    private CheckMojo mojo() {
        Model model = new Model();
        model.setGroupId("com.example");
        model.setArtifactId("hostile");
        model.setVersion("1");
        Build build = new Build();
        build.setDirectory(dir.resolve("target").toString());
        Resource resources = new Resource();
        resources.setDirectory(dir.resolve("src/main/resources").toString());
        build.addResource(resources);
        model.setBuild(build);
        MavenProject project = new MavenProject(model);
        project.setFile(dir.resolve("pom.xml").toFile());
        project.addCompileSourceRoot(dir.resolve("src/main/java").toString());
        CheckMojo m = new CheckMojo();
        m.project = project;
        m.failOnSeverity = "error";
        m.formats = List.of("sarif");
        m.outputDirectory = dir.resolve("target").toFile();
        m.printFindings = true;
        m.setLog(log);
        return m;
    }

    private void write(String relative, String text) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static final String LIMIT_QUERY =
            "SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1;\n";

    @Test
    void excludeGlobsOfManyStarsFinish() throws Exception {
        write("src/main/resources/db/V1__claim.sql", LIMIT_QUERY);
        write("src/main/resources/db/gen/V2__claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        // the first two match nothing here (every path would have to end in x or y); the third drops gen/
        m.excludes = List.of("***************x", "*".repeat(40) + "y", "src/main/resources/db/gen/");
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("pg-advisory-lint found 1 finding at or above failOnSeverity=error");
        assertThat(log.lines).anyMatch(l -> l.startsWith("[ERROR] src/main/resources/db/V1__claim.sql:1:"));
        assertThat(log.lines).noneMatch(l -> l.contains("V2__claim.sql"));
    }

    @Test
    void threeHundredKeysThenTheSameInReverseFinishWithOneInversion() throws Exception {
        StringBuilder b =
                new StringBuilder("package p;\nclass Keys {\n  void both(java.sql.Statement st) throws Exception {\n");
        for (int k = 0; k < 300; k++) {
            b.append("    st.execute(\"SELECT pg_advisory_xact_lock(").append(k).append(")\");\n");
        }
        for (int k = 299; k >= 0; k--) {
            b.append("    st.execute(\"SELECT pg_advisory_xact_lock(").append(k).append(")\");\n");
        }
        write("src/main/java/p/Keys.java", b.append("  }\n}\n").toString());
        CheckMojo m = mojo();
        assertThatThrownBy(m::execute).isInstanceOf(MojoFailureException.class);
        // lines 4..303 take 0..299, line 304 takes 299 again, line 305 takes 298 while 299 is held
        assertThat(log.lines)
                .filteredOn(l ->
                        l.startsWith("[ERROR] src/main/java/p/Keys.java:") && l.contains("[unordered-multi-key-lock]"))
                .hasSize(1)
                .allMatch(l -> l.startsWith("[ERROR] src/main/java/p/Keys.java:305:"));
        assertThat(log.lines).noneMatch(l -> l.contains("rule-time-budget"));
    }

    @Test
    void aConfigurationNestedFiveThousandDeepIsAnExecutionErrorNamingFileAndLine() throws Exception {
        write("cfg/lint.yml", "excludes: " + "[".repeat(5000) + "]".repeat(5000) + "\n");
        CheckMojo m = mojo();
        m.configFile = dir.resolve("cfg/lint.yml").toFile();
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("pg-advisory-lint: " + dir.resolve("cfg/lint.yml") + ":1:110: collections nested more"
                        + " than 100 levels deep");
    }
}
