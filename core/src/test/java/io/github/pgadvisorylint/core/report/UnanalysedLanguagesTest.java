package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files in languages the tool does not read (Kotlin, Scala, Groovy) under the scanned roots are counted,
 * and the text summary, the JSON report and SARIF say how many were not analysed.
 */
class UnanalysedLanguagesTest {

    @TempDir
    Path dir;

    private void write(String relative, String text) throws Exception {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /** A small service half in Kotlin: the .kt files take the same session lock the Java file does. */
    private AnalysisResult scanMixedProject() throws Exception {
        write("src/main/java/com/acme/Jobs.java", "package com.acme;\nclass Jobs {\n}\n");
        write(
                "src/main/kotlin/com/acme/Claims.kt",
                "package com.acme\nfun claim(c: java.sql.Connection) = c.prepareStatement(\"SELECT pg_advisory_lock(1)\")\n");
        write("src/main/kotlin/com/acme/Sweeper.kt", "package com.acme\nclass Sweeper\n");
        write("build.gradle.kts", "plugins { java }\n");
        write("src/main/scala/com/acme/Report.scala", "package com.acme\nobject Report\n");
        write("src/main/resources/db/V1__init.sql", "CREATE TABLE jobs(id bigint);\n");
        // not under a scanned directory's walk: build output is never counted
        write("target/classes/Generated.kt", "class Generated\n");
        write("notes.txt", "Kotlin and Java\n");
        return Analyzer.builder().rules(List.of()).threads(1).build().analyze(dir, List.of(dir));
    }

    @Test
    void countsPerLanguageInTheResult() throws Exception {
        AnalysisResult r = scanMixedProject();
        assertThat(r.unanalysed())
                .containsExactly(Map.entry(OtherLanguage.KOTLIN, 3), Map.entry(OtherLanguage.SCALA, 1));
        assertThat(r.filesScanned()).isEqualTo(2);
    }

    @Test
    void theTextSummarySaysWhatWasNotAnalysed() throws Exception {
        String summary = new TextReporter().summary(scanMixedProject());
        assertThat(summary)
                .startsWith("0 errors, 0 warnings, 0 notes in 2 files (")
                .endsWith("; 3 Kotlin files and 1 Scala file were not analysed (the tool reads Java and SQL)");
        assertThat(OtherLanguage.sentence(Map.of(OtherLanguage.GROOVY, 1)))
                .isEqualTo("1 Groovy file was not analysed (the tool reads Java and SQL)");
        assertThat(OtherLanguage.sentence(Map.of())).isEmpty();
    }

    @Test
    void jsonCountsThemInTheSummaryAndStaysValid() throws Exception {
        StringWriter w = new StringWriter();
        new JsonReporter().write(scanMixedProject(), w);
        JsonNode summary = new ObjectMapper().readTree(w.toString()).get("summary");
        assertThat(summary.at("/unanalysed/Kotlin").asInt()).isEqualTo(3);
        assertThat(summary.at("/unanalysed/Scala").asInt()).isEqualTo(1);
        assertThat(summary.at("/unanalysed").size()).isEqualTo(2);
        assertThat(JsonSchemaCheck.validate(w.toString())).isEmpty();
    }

    @Test
    void sarifRecordsOneNotePerLanguageDeterministically() throws Exception {
        AnalysisResult r = scanMixedProject();
        byte[] first = new SarifReporter().toBytes(r);
        assertThat(new SarifReporter().toBytes(scanMixedProject())).isEqualTo(first);
        JsonNode notes = new ObjectMapper().readTree(first).at("/runs/0/invocations/0/toolExecutionNotifications");
        assertThat(notes).hasSize(2);
        JsonNode kotlin = notes.get(0);
        assertThat(kotlin.at("/descriptor/id").asText()).isEqualTo("unanalysed-language");
        assertThat(kotlin.get("level").asText()).isEqualTo("note");
        assertThat(kotlin.at("/properties/language").asText()).isEqualTo("Kotlin");
        assertThat(kotlin.at("/properties/count").asInt()).isEqualTo(3);
        assertThat(kotlin.at("/message/text").asText())
                .isEqualTo("3 Kotlin files were not analysed (the tool reads Java and SQL).");
        assertThat(notes.get(1).at("/properties/language").asText()).isEqualTo("Scala");
        assertThat(new ObjectMapper()
                        .readTree(first)
                        .at("/runs/0/invocations/0/executionSuccessful")
                        .asBoolean())
                .as("a note, not a failure")
                .isTrue();
        assertThat(SarifSchemaCheck.violations(new String(first, StandardCharsets.UTF_8)))
                .isEmpty();
    }

    @Test
    void aJavaOnlyTreeHasNoSuchNoteAndKeepsItsReport() throws Exception {
        write("src/main/java/com/acme/Jobs.java", "package com.acme;\nclass Jobs {\n}\n");
        AnalysisResult r =
                Analyzer.builder().rules(List.of()).threads(1).build().analyze(dir, List.of(dir));
        assertThat(r.unanalysed()).isEmpty();
        assertThat(new TextReporter().summary(r)).doesNotContain("not analysed");
        StringWriter w = new StringWriter();
        new JsonReporter().write(r, w);
        assertThat(w.toString()).doesNotContain("unanalysed");
    }
}
