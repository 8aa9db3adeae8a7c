package dev.baton.impl.health;

import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.runtime.OptionalApis;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import java.util.Locale;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Registers Baton's MicroProfile Health checks ({@link StoresReadinessCheck}, {@link RenewalsLivenessCheck})
 * where the application has the Health API and {@code baton.health.enabled} is not {@code false}. The
 * check classes name Health API types, so they are only loaded here, after the API was found: without
 * it this extension adds nothing and loads nothing of it.
 */
public class HealthExtension implements Extension {

    void registerChecks(@Observes BeforeBeanDiscovery event) {
        if (!registers()) {
            return;
        }
        // Application scoped by this extension, not by an annotation on the class: a container that discovers the
        // classes of Baton's jar by their annotations (Quarkus) must not find checks whose API may be missing.
        event.addAnnotatedType(StoresReadinessCheck.class, StoresReadinessCheck.class.getName())
                .add(ApplicationScoped.Literal.INSTANCE);
        event.addAnnotatedType(RenewalsLivenessCheck.class, RenewalsLivenessCheck.class.getName())
                .add(ApplicationScoped.Literal.INSTANCE);
    }

    /** @return whether the checks are to be registered: the Health API is present and the checks are enabled */
    static boolean registers() {
        return enabled() && healthApiPresent(HealthExtension.class.getClassLoader());
    }

    /** A value that is neither true nor false fails the deployment when the configuration is validated. */
    private static boolean enabled() {
        return !ConfigProvider.getConfig()
                .getOptionalValue(BatonConfig.HEALTH_ENABLED, String.class)
                .map(value -> value.trim().toLowerCase(Locale.ROOT))
                .filter("false"::equals)
                .isPresent();
    }

    private static boolean healthApiPresent(ClassLoader loader) {
        return OptionalApis.present("org.eclipse.microprofile.health.HealthCheck", loader);
    }
}
