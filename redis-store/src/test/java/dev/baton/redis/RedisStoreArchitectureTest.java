package dev.baton.redis;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
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

    /**
     * Each class hierarchy of the store its own slice: a top-level class with its nested classes and its
     * subclasses, so a base class that picks its subclass (a connector per kind of client) is no cycle.
     */
    private static final SliceAssignment CLASS_HIERARCHIES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            if (!inStore(javaClass)) {
                return SliceIdentifier.ignore();
            }
            JavaClass top = topLevel(javaClass);
            while (top.getRawSuperclass()
                    .filter(RedisStoreArchitectureTest::inStore)
                    .isPresent()) {
                top = topLevel(top.getRawSuperclass().get());
            }
            return SliceIdentifier.of(top.getName());
        }

        @Override
        public String getDescription() {
            return "the class hierarchies of dev.baton.redis";
        }
    };

    private static boolean inStore(JavaClass javaClass) {
        return javaClass.getPackageName().startsWith("dev.baton.redis");
    }

    private static JavaClass topLevel(JavaClass javaClass) {
        JavaClass top = javaClass;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top;
    }

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

    /**
     * No two classes depend on each other (a class, its nested classes and its subclasses count as one): the
     * facade uses its parts, the parts never the facade, and the factory builds the store through its builder.
     */
    @Test
    void noClassesDependOnEachOther() {
        slices().assignedFrom(CLASS_HIERARCHIES).should().beFreeOfCycles().check(STORE);
    }
}
