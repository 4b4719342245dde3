package io.github.pgadvisorylint.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * Shows that {@link ArchitectureTest}'s cycle rule can fail: core's main classes plus one test class,
 * {@code core.source.CycleProbe}, that makes {@code core.source} depend on {@code core.model} (which depends
 * on {@code core.source} for {@code SourceRegion}) must give a cycle between those two slices (the main
 * classes alone give none: {@link ArchitectureTest}).
 */
class ArchitectureRulesFailTest {

    private static final String PROBE = "/io/github/pgadvisorylint/core/source/CycleProbe.class";

    @Test
    void aCycleThroughOneMoreClassIsReported() {
        ImportOption mainAndProbe =
                location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location) || location.contains(PROBE);
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(mainAndProbe)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("io.github.pgadvisorylint.core");
        assertThat(classes.contain("io.github.pgadvisorylint.core.source.CycleProbe"))
                .isTrue();

        EvaluationResult result = ArchitectureTest.CORE_PACKAGES_FREE_OF_CYCLES.evaluate(classes);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString())
                .contains("Cycle detected")
                .contains("CycleProbe")
                .contains("io.github.pgadvisorylint.core.model.LockSite");
    }
}
