package dev.baton.jpa;

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
 * The JPA store is written on the store SPI like any third-party store: it uses the API, the JDK, the Jakarta
 * APIs of its integration and the providers and drivers it adapts to, and never Baton's runtime.
 */
class JpaStoreArchitectureTest {

    private static final JavaClasses STORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.baton.jpa");

    /** Each package its own slice: the root package included, and a package apart from its subpackages. */
    private static final String EACH_PACKAGE = "(**)";

    /**
     * Each class hierarchy of the store its own slice: a top-level class with its nested classes and its
     * subclasses, so a base class that picks its subclass (a schema check per database) is no cycle.
     */
    private static final SliceAssignment CLASS_HIERARCHIES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            if (!inStore(javaClass)) {
                return SliceIdentifier.ignore();
            }
            JavaClass top = topLevel(javaClass);
            while (top.getRawSuperclass()
                    .filter(JpaStoreArchitectureTest::inStore)
                    .isPresent()) {
                top = topLevel(top.getRawSuperclass().get());
            }
            return SliceIdentifier.of(top.getName());
        }

        @Override
        public String getDescription() {
            return "the class hierarchies of dev.baton.jpa";
        }
    };

    private static boolean inStore(JavaClass javaClass) {
        return javaClass.getPackageName().startsWith("dev.baton.jpa");
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
    void theStoreUsesOnlyTheApiTheJdkAndWhatItIntegratesWith() {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        // Baton's API and SPI, and the store itself
                        "dev.baton",
                        "dev.baton.spi",
                        "dev.baton.event",
                        "dev.baton.jpa..",
                        // the JDK: JDBC, JNDI, the persistence.xml reader
                        "java..",
                        "javax.sql..",
                        "javax.naming..",
                        "javax.xml..",
                        "org.w3c.dom..",
                        // Jakarta EE: persistence, transactions, and CDI for the shipped beans
                        "jakarta.persistence..",
                        "jakarta.transaction..",
                        "jakarta.annotation..",
                        "jakarta.enterprise..",
                        "jakarta.inject..",
                        "jakarta.interceptor..",
                        // the providers and drivers it adapts to, each used only where present
                        "org.hibernate..",
                        "org.eclipse.persistence..",
                        "org.postgresql..",
                        "org.mariadb..",
                        "org.h2..")
                .check(STORE);
    }

    /**
     * The internal packages may use the public package's types, which they implement or take (the store's
     * settings, {@code JpaDatabase}, {@code TransactionRunner}); the public package enters them through the
     * facade. Beyond that edge, no two packages depend on each other.
     */
    @Test
    void noPackagesDependOnEachOther() {
        slices().matching(EACH_PACKAGE)
                .should()
                .beFreeOfCycles()
                .ignoreDependency(resideInAPackage("dev.baton.jpa.internal.."), resideInAPackage("dev.baton.jpa"))
                .check(STORE);
    }

    /**
     * No two classes depend on each other (a class, its nested classes and its subclasses count as one): the
     * facade uses its parts, the parts never the facade, and the provider adapters sit behind
     * {@code ProviderJdbc}.
     */
    @Test
    void noClassesDependOnEachOther() {
        slices().assignedFrom(CLASS_HIERARCHIES).should().beFreeOfCycles().check(STORE);
    }
}
