package dev.baton.impl.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.impl.cdi.BatonExtension;
import io.smallrye.config.inject.ConfigExtension;
import org.assertj.core.api.AbstractThrowableAssert;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/** Boots Weld SE by hand, for deployments that must fail. */
public final class Deployments {

    private Deployments() {}

    /**
     * Asserts that a deployment of these beans with this configuration fails, and returns the assertion
     * on the failure so the caller can check its message.
     *
     * @param config {@code key=value} properties
     * @param beans the bean classes
     * @return the assertion on the deployment failure
     */
    public static AbstractThrowableAssert<?, ? extends Throwable> assertDeploymentFails(
            String[] config, Class<?>... beans) {
        TestConfig.install(config);
        try {
            return assertThatThrownBy(() -> {
                try (WeldContainer container = weld(beans).initialize()) {
                    container.select(dev.baton.Locks.class).get().name();
                }
            });
        } finally {
            TestConfig.uninstall();
        }
    }

    /**
     * @param beans the bean classes
     * @return a Weld SE with Baton and MicroProfile Config, no discovery
     */
    public static Weld weld(Class<?>... beans) {
        return new Weld()
                .disableDiscovery()
                .containerId(null)
                .addExtension(new BatonExtension())
                .addExtension(new ConfigExtension())
                .beanClasses(beans);
    }
}
