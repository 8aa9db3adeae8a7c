package dev.baton;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The shape of the API jar: applications' API ({@code dev.baton}) stands alone, the store SPI and the events
 * build on it and on the JDK only, and nothing here reaches into an implementation.
 */
class ApiArchitectureTest {

    private static final JavaClasses API = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.baton");

    /** Each package its own slice: the root package included, and a package apart from its subpackages. */
    private static final String EACH_PACKAGE = "(**)";

    @Test
    void theApplicationsApiKnowsNeitherTheSpiNorTheEvents() {
        noClasses()
                .that()
                .resideInAPackage("dev.baton")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.baton.spi..", "dev.baton.event..")
                .because("an application that takes locks needs neither; the SPI and the events build on the API")
                .check(API);
    }

    @Test
    void theStoreSpiAndTheEventsUseOnlyTheApiAndTheJdk() {
        classes()
                .that()
                .resideInAnyPackage("dev.baton.spi..", "dev.baton.event..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("dev.baton", "dev.baton.spi..", "dev.baton.event..", "java..")
                .because("a store author compiles against this jar and the JDK, nothing else")
                .check(API);
    }

    @Test
    void theApiUsesOnlyTheJdkAndTheAnnotationsItsBindingsNeed() {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "dev.baton",
                        "dev.baton.spi",
                        "dev.baton.event",
                        "java..",
                        "jakarta.interceptor..",
                        "jakarta.enterprise.util..",
                        "jakarta.ejb..")
                .because("the API jar is all an application compiles against: no implementation, no container")
                .check(API);
    }

    @Test
    void noPackagesDependOnEachOther() {
        slices().matching(EACH_PACKAGE).should().beFreeOfCycles().check(API);
    }
}
