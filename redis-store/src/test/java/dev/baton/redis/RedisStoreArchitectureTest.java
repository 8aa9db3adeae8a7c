package dev.baton.redis;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The Redis store is written on the store SPI like any third-party store: it uses the API, the JDK and its
 * client, Lettuce, and never Baton's runtime.
 */
class RedisStoreArchitectureTest {

    private static final JavaClasses STORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.baton.redis");

    /** Each package its own slice: the root package included, and a package apart from its subpackages. */
    private static final String EACH_PACKAGE = "(**)";

    @Test
    void theStoreNeverUsesBatonsRuntime() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.baton.impl..")
                .because("a store works with any Baton runtime through the SPI")
                .check(STORE);
    }

    @Test
    void theStoreUsesOnlyTheApiTheJdkAndItsClient() {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "dev.baton", "dev.baton.spi", "dev.baton.event", "dev.baton.redis..", "java..", "io.lettuce..")
                .check(STORE);
    }

    /**
     * The internal package may use the public package's types (the factory builds the store through its
     * builder); the public package enters it through the facade. Beyond that edge, no two packages depend on
     * each other.
     */
    @Test
    void noPackagesDependOnEachOther() {
        slices().matching(EACH_PACKAGE)
                .should()
                .beFreeOfCycles()
                .ignoreDependency(resideInAPackage("dev.baton.redis.internal.."), resideInAPackage("dev.baton.redis"))
                .check(STORE);
    }
}
