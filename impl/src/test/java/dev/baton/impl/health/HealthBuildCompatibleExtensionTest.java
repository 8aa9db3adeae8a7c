package dev.baton.impl.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.UnskippedBatonExtension;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.net.URL;
import java.util.Collection;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.resources.ClassLoaderResourceLoader;
import org.jboss.weld.resources.spi.ResourceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The health checks where only build-compatible extensions run (Quarkus' ArC), in Weld with Baton's portable
 * extensions hidden: registered once each, application scoped, and reported; left out when disabled. (The
 * Quarkus example checks them over HTTP.)
 */
class HealthBuildCompatibleExtensionTest {

    private static final String PORTABLE_EXTENSIONS =
            "META-INF/services/" + jakarta.enterprise.inject.spi.Extension.class.getName();

    @AfterEach
    void uninstall() {
        TestConfig.uninstall();
    }

    @Test
    void aloneItRegistersBothChecksOnceApplicationScoped() {
        TestConfig.install();
        try (WeldContainer container = withoutPortableExtensions().initialize()) {
            BeanManager beans = container.getBeanManager();
            assertThat(beans.getBeans(HealthCheck.class, Readiness.Literal.INSTANCE))
                    .singleElement()
                    .satisfies(bean -> assertThat(bean.getBeanClass()).isEqualTo(StoresReadinessCheck.class))
                    .extracting(Bean::getScope)
                    .isEqualTo(ApplicationScoped.class);
            assertThat(beans.getBeans(HealthCheck.class, Liveness.Literal.INSTANCE))
                    .singleElement()
                    .satisfies(bean -> assertThat(bean.getBeanClass()).isEqualTo(RenewalsLivenessCheck.class))
                    .extracting(Bean::getScope)
                    .isEqualTo(ApplicationScoped.class);
            assertThat(container
                            .select(SmallRyeHealthReporter.class)
                            .get()
                            .getHealth()
                            .getPayload()
                            .toString())
                    .contains(StoresReadinessCheck.NAME, RenewalsLivenessCheck.NAME);
        }
    }

    @Test
    void aloneItRegistersNothingWhenHealthIsDisabled() {
        TestConfig.install("baton.health.enabled=false");
        try (WeldContainer container = withoutPortableExtensions().initialize()) {
            BeanManager beans = container.getBeanManager();
            assertThat(beans.getBeans(StoresReadinessCheck.class)).isEmpty();
            assertThat(beans.getBeans(RenewalsLivenessCheck.class)).isEmpty();
        }
    }

    /** Weld as a CDI Lite container would be: Baton's portable extensions hidden, its build-compatible ones run. */
    private static Weld withoutPortableExtensions() {
        ClassLoader loader = HealthBuildCompatibleExtensionTest.class.getClassLoader();
        ResourceLoader hiding = new ClassLoaderResourceLoader(loader) {
            @Override
            public Collection<URL> getResources(String name) {
                return name.equals(PORTABLE_EXTENSIONS) ? List.of() : super.getResources(name);
            }
        };
        return new Weld()
                .disableDiscovery()
                .containerId(null)
                .setResourceLoader(hiding)
                .addExtension(new ConfigExtension())
                .addBuildCompatibleExtensions(UnskippedBatonExtension.class, Unskipped.class)
                .beanClasses(SmallRyeHealthReporter.class, io.smallrye.health.AsyncHealthCheckFactory.class);
    }

    /**
     * The extension without its {@code @SkipIfPortableExtensionPresent}, which Weld honours whether or not the
     * portable extension is there: how a CDI Lite container runs it. (Weld finds extension methods among the declared
     * ones, hence the overrides.)
     */
    public static class Unskipped extends HealthBuildCompatibleExtension {
        @Override
        @Discovery
        public void registerChecks(ScannedClasses scanned) {
            super.registerChecks(scanned);
        }

        @Override
        @Enhancement(types = BatonHealthCheck.class, withSubtypes = true)
        public void scope(ClassConfig check) {
            super.scope(check);
        }
    }
}
