package dev.pacer.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures;
import java.util.ArrayList;
import java.util.List;

/**
 * The layout's rules, over every module's main classes (this module's test class path sees them all).
 * Dependencies point one way: ratelimit ← engine ← report ← cli, and inside the engine from the entry
 * point down to the records at the bottom. A rule whose classes are missing fails too (ArchUnit's
 * default), so a renamed package cannot make a rule pass by matching nothing.
 */
@AnalyzeClasses(packages = "dev.pacer", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** No two packages depend on each other, directly or through others, in any module. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.pacer.(**)").should().beFreeOfCycles();

    /** The limiter is a library of its own: the JDK and itself, nothing else. */
    @ArchTest
    static final ArchRule ratelimitDependsOnNothingOfOurs = classes().that().resideInAPackage("dev.pacer.ratelimit..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.pacer.ratelimit..");

    /** The limiter's shared types (RateLimiter, Grant, RateSpec, clocks): the JDK and themselves, nothing else. */
    @ArchTest
    static final ArchRule ratelimitApiDependsOnItselfAlone = classes().that()
            .resideInAPackage("dev.pacer.ratelimit.api")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.pacer.ratelimit.api");

    /**
     * The limiter's packages, top to bottom: the factory (RateLimiters, LimiterDesign), the two implementations as
     * peers (the lock-free limiter, the locking family: neither uses the other), and the shared api at the bottom.
     */
    @ArchTest
    static final ArchRule ratelimitLayersPointDown = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("factory").definedBy("dev.pacer.ratelimit")
            .layer("atomic").definedBy("dev.pacer.ratelimit.atomic")
            .layer("family").definedBy("dev.pacer.ratelimit.family")
            .layer("api").definedBy("dev.pacer.ratelimit.api")
            .whereLayer("factory").mayNotBeAccessedByAnyLayer()
            .whereLayer("atomic").mayOnlyBeAccessedByLayers("factory")
            .whereLayer("family").mayOnlyBeAccessedByLayers("factory")
            .whereLayer("api").mayOnlyBeAccessedByLayers("factory", "atomic", "family");

    @ArchTest
    static final ArchRule engineNeverUsesTheCliOrTheReport = noClasses().that().resideInAPackage("dev.pacer.engine..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.pacer.cli..", "dev.pacer.report..");

    /** The engine reads time through the run's clock; the system clock is made in one place. */
    @ArchTest
    static final ArchRule engineReadsTimeOnlyThroughTheRunsClock = noClasses().that()
            .resideInAPackage("dev.pacer.engine..")
            .and().doNotHaveFullyQualifiedName("dev.pacer.engine.api.SystemRunClock")
            .should().callMethod(System.class, "nanoTime");

    /** The CLI is built on the engine's API alone: the entry points (its top package) and the api package. */
    @ArchTest
    static final ArchRule cliUsesTheEngineOnlyThroughItsApi = noClasses().that().resideInAPackage("dev.pacer.cli..")
            .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.pacer.engine..")
                    .and(DescribedPredicate.not(JavaClass.Predicates.resideInAnyPackage(
                            "dev.pacer.engine", "dev.pacer.engine.api"))));

    @ArchTest
    static final ArchRule reportNeverUsesTheCli = noClasses().that().resideInAPackage("dev.pacer.report..")
            .should().dependOnClassesThat().resideInAPackage("dev.pacer.cli..");

    /**
     * The engine's layers, top to bottom; packages in one tier are peers. Each may use only the tiers
     * below it: the entry points ({@code LoadTest}, the limiter comparison and the
     * other front doors); the run's wiring ({@code LoadRun} from {@code RunOptions}); what drives or reads a run
     * from outside (control, metrics export, scenarios); the sinks (progress line, summary text and JSON); the run core
     * (activity, workers, reporter); the log format; the gates' verdict; the
     * recorders; the workload op (files, bindings, checks); the ops; the text helpers; and at the bottom the API
     * (the op SPI, results, changes, the run's clock, settings' values and errors).
     */
    static final String[][] ENGINE_TIERS = {
            {"entry"}, {"internal"}, {"control", "export", "scenario"}, {"sink"}, {"run"}, {"hlog"}, {"gate"},
                    {"metrics"},
            {"workload"}, {"op"}, {"text"}, {"api"}};

    @ArchTest
    static final ArchRule engineLayersPointDown = engineLayers();

    private static ArchRule engineLayers() {
        Architectures.LayeredArchitecture rule = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String[] tier : ENGINE_TIERS) {
            for (String layer : tier) {
                rule = rule.layer(layer).definedBy(layer.equals("entry") ? "dev.pacer.engine" : "dev.pacer.engine."
                        + layer + "..");
            }
        }
        List<String> above = new ArrayList<>();
        for (String[] tier : ENGINE_TIERS) {
            for (String layer : tier) {
                rule = above.isEmpty() ? rule.whereLayer(layer).mayNotBeAccessedByAnyLayer()
                        : rule.whereLayer(layer).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
            }
            above.addAll(List.of(tier));
        }
        return rule;
    }
}
