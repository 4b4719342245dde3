package io.github.pgadvisorylint.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The package structure of {@code core} (docs/architecture.md, "Packages"): no cycle among its packages,
 * and no dependency on the modules built on top of it. Runs on the main classes only.
 *
 * <p>{@link ArchitectureRulesFailTest} shows that {@link #CORE_PACKAGES_FREE_OF_CYCLES} fails on a cycle.
 */
@AnalyzeClasses(
        packages = "io.github.pgadvisorylint",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class ArchitectureTest {

    /**
     * One slice per package below {@code core} (with its subpackages): no slice may reach itself again.
     * A new cycle is broken by moving the type both sides need into a leaf package ({@code core.source},
     * {@code core.diagnostic}, {@code core.io}, {@code core.tool}) or by inverting the dependency.
     */
    @ArchTest
    static final ArchRule CORE_PACKAGES_FREE_OF_CYCLES =
            slices().matching("io.github.pgadvisorylint.core.(*)..").should().beFreeOfCycles();

    /** {@code core} knows no rule, command line or Maven plugin class: dependencies point one way. */
    @ArchTest
    static final ArchRule CORE_DEPENDS_ON_NO_OUTER_MODULE = noClasses()
            .that()
            .resideInAPackage("io.github.pgadvisorylint.core..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "io.github.pgadvisorylint.cli..",
                    "io.github.pgadvisorylint.maven..",
                    "io.github.pgadvisorylint.rules..",
                    "io.github.pgadvisorylint.fixtures..");

    /** Every class of the {@code core} module lies below {@code core}: no package split with another module. */
    @ArchTest
    static final ArchRule CORE_CLASSES_STAY_IN_CORE =
            classes().should().resideInAPackage("io.github.pgadvisorylint.core..");
}
