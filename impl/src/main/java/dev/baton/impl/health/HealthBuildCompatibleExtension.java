package dev.baton.impl.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;

/**
 * {@link HealthExtension}'s counterpart for CDI Lite containers that run no portable extension (Quarkus's ArC):
 * adds Baton's health checks as application scoped beans where the application has the Health API and
 * {@code baton.health.enabled} is not {@code false}. Skipped where the portable extension runs, so the checks are
 * registered once.
 */
@SkipIfPortableExtensionPresent(HealthExtension.class)
public class HealthBuildCompatibleExtension implements BuildCompatibleExtension {

    /** Public, for the container. */
    public HealthBuildCompatibleExtension() {}

    /**
     * @param scanned the classes the container discovers: the checks, when they are to be registered
     */
    @Discovery
    public void registerChecks(ScannedClasses scanned) {
        if (HealthExtension.registers()) {
            scanned.add(StoresReadinessCheck.class.getName());
            scanned.add(RenewalsLivenessCheck.class.getName());
        }
    }

    /**
     * @param check one of Baton's checks, given its scope (not annotated on the class: a container that discovers
     *     Baton's classes by their annotations must not find checks whose API may be missing)
     */
    @Enhancement(types = BatonHealthCheck.class, withSubtypes = true)
    public void scope(ClassConfig check) {
        if (!check.info().isAbstract() && HealthExtension.registers()) {
            check.addAnnotation(ApplicationScoped.class);
        }
    }
}
