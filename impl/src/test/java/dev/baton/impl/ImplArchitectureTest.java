package dev.baton.impl;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering of {@code impl}, as the package-info of each package states it: the engine and its helpers know
 * no container, the stores shipped here are written on the SPI alone like any third-party store, the CDI-free
 * packages stay free of CDI, and no two packages depend on each other.
 */
class ImplArchitectureTest {

    private static final JavaClasses IMPL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.baton.impl");

    /** The public API of Baton: what a store, like an application, may use. */
    private static final String[] API = {"dev.baton", "dev.baton.spi", "dev.baton.event"};

    @Test
    void theEngineAndItsHelpersUseNoJakartaEeOrMicroProfileApi() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.baton.impl.engine..",
                        "dev.baton.impl.key..",
                        "dev.baton.impl.leadership..",
                        "dev.baton.impl.time..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("jakarta..", "org.eclipse.microprofile..")
                .because("the engine runs the same in any container, and its tests run without one")
                .check(IMPL);
    }

    @Test
    void theConfigurationReadsMicroProfileConfigAndUsesNoOtherApi() {
        noClasses()
                .that()
                .resideInAPackage("dev.baton.impl.config..")
                .should()
                .dependOnClassesThat(resideInAnyPackage("jakarta..", "org.eclipse.microprofile..")
                        .and(not(resideInAPackage("org.eclipse.microprofile.config.."))))
                .because("the configuration is read from MicroProfile Config, and only from it")
                .check(IMPL);
    }

    @Test
    void thePlansTheRuntimeWiringAndTransactionsUseNoCdi() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.baton.impl.plan..", "dev.baton.impl.runtime..", "dev.baton.impl.transaction..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("jakarta.enterprise..", "jakarta.inject..", "jakarta.interceptor..")
                .because("the CDI adapters are all in dev.baton.impl.cdi")
                .check(IMPL);
    }

    @Test
    void theMemoryStoreUsesOnlyTheApiAndTheJdk() {
        onlyTheApiAndTheJdk("dev.baton.impl.store.memory..");
    }

    /** Why the file store may stay in this jar: it needs nothing of the runtime around it. */
    @Test
    void theFileStoreUsesOnlyTheApiAndTheJdk() {
        onlyTheApiAndTheJdk("dev.baton.impl.store.file..");
    }

    private static void onlyTheApiAndTheJdk(String store) {
        classes()
                .that()
                .resideInAPackage(store)
                .should()
                .onlyDependOnClassesThat(
                        resideInAnyPackage(API).or(resideInAPackage(store)).or(resideInAPackage("java..")))
                .because("a store shipped with the runtime is written on the SPI like any other store")
                .check(IMPL);
    }

    @Test
    void noPackagesDependOnEachOther() {
        slices().matching("dev.baton.impl.(*)..").should().beFreeOfCycles().check(IMPL);
    }
}
