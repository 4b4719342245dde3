package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.EvidenceScopes;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModuleDirectoriesTest {

    @TempDir
    Path root;

    private void write(String path, String text) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static String pom(String artifactId, String... dependencies) {
        StringBuilder deps = new StringBuilder();
        for (String d : dependencies) {
            deps.append("<dependency><groupId>g</groupId><artifactId>")
                    .append(d)
                    .append("</artifactId></dependency>");
        }
        return "<project><modelVersion>4.0.0</modelVersion><parent><artifactId>parent</artifactId></parent>"
                + "<artifactId>" + artifactId + "</artifactId>"
                + "<dependencyManagement><dependencies><dependency><artifactId>managed-only</artifactId>"
                + "</dependency></dependencies></dependencyManagement>"
                + "<dependencies>" + deps + "</dependencies></project>";
    }

    @Test
    void evidenceOutsideEveryModuleSpeaksForTheWholeProject() throws IOException {
        write("pom.xml", pom("parent"));
        write("deploy/pgbouncer.ini", "");
        write("app/pom.xml", pom("app"));
        EvidenceScopes scopes = ModuleDirectories.scopes(
                root, List.of("deploy/pgbouncer.ini", "pgbouncer.ini"), List.of("app/src/main/java/A.java"));
        assertThat(scopes).isSameAs(EvidenceScopes.PROJECT);
    }

    @Test
    void moduleEvidenceReachesItsModuleAndEveryModuleThatDependsOnItTransitively() throws IOException {
        write("config/pom.xml", pom("config"));
        write("lib/pom.xml", pom("lib", "config"));
        write("services/api/pom.xml", pom("api", "lib"));
        write("services/worker/pom.xml", pom("worker", "managed-only"));
        write("managed-only/pom.xml", pom("managed-only"));
        EvidenceScopes scopes = ModuleDirectories.scopes(
                root,
                List.of("config/src/main/resources/application.yml"),
                List.of(
                        "lib/src/main/java/L.java",
                        "services/api/src/main/java/A.java",
                        "services/worker/src/main/java/W.java",
                        "managed-only/src/main/java/M.java"));
        assertThat(scopes.modulesOfFile())
                .isEqualTo(
                        Map.of("config/src/main/resources/application.yml", List.of("config", "lib", "services/api")));
        SourceRegion evidence = new SourceRegion("config/src/main/resources/application.yml", 1, 1, 1, 2);
        assertThat(scopes.applies(evidence, "services/api/src/main/java/A.java"))
                .isTrue();
        assertThat(scopes.applies(evidence, "services/worker/src/main/java/W.java"))
                .isFalse();
        assertThat(scopes.applies(evidence, "configuration/src/main/java/C.java"))
                .as("a module's directory is a path prefix up to a slash")
                .isFalse();
        assertThat(scopes.applies(null, "anything.java")).isTrue();
    }

    @Test
    void gradleProjectReferencesAreDependencies() throws IOException {
        write("settings.gradle", "include 'db', 'api'");
        write("db/build.gradle", "plugins { id 'java-library' }");
        write("api/build.gradle.kts", "dependencies { implementation(project(\":db\")) }");
        write("batch/build.gradle", "dependencies { implementation project(path: ':db') }");
        write("other/build.gradle", "dependencies { implementation 'org.postgresql:postgresql:42.7.4' }");
        EvidenceScopes scopes = ModuleDirectories.scopes(
                root,
                List.of("db/src/main/resources/application.properties"),
                List.of("api/A.java", "batch/B.java", "other/O.java"));
        assertThat(scopes.modulesOf("db/src/main/resources/application.properties"))
                .containsExactly("db", "api", "batch");
    }

    @Test
    void theNearestModuleOwnsTheFileAndAMalformedPomDependsOnNothing() throws IOException {
        write("outer/pom.xml", pom("outer"));
        write("outer/inner/pom.xml", "<project><artifactId>inner</artifactId><dependencies><dependency>");
        write("user/pom.xml", pom("user", "inner"));
        write("broken/pom.xml", "<project><artifactId>broken</artifactId><dependencies><dependency><artifactId>outer");
        EvidenceScopes scopes = ModuleDirectories.scopes(
                root, List.of("outer/inner/pgbouncer.ini"), List.of("user/U.java", "broken/B.java", "outer/O.java"));
        assertThat(scopes.modulesOf("outer/inner/pgbouncer.ini")).containsExactly("outer/inner", "user");
    }

    @Test
    void aBuildFileThatIsASymbolicLinkMakesNoModule() throws IOException {
        write("real/pom.xml", pom("real"));
        Files.createDirectories(root.resolve("linked"));
        Files.createSymbolicLink(root.resolve("linked/pom.xml"), root.resolve("real/pom.xml"));
        EvidenceScopes scopes =
                ModuleDirectories.scopes(root, List.of("linked/pgbouncer.ini"), List.of("linked/A.java"));
        assertThat(scopes).isSameAs(EvidenceScopes.PROJECT);
    }
}
