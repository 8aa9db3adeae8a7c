package dev.baton.impl.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.testing.TestConfig;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run by the surefire execution {@code without-health-api}, whose class path lacks the MicroProfile Health
 * API and SmallRye Health: the health extension is installed, as its service file installs it, and
 * Baton still starts and takes locks.
 */
@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, HealthExtension.class})
class WithoutHealthApiTest {

    @Inject
    Locks locks;

    @Inject
    BeanManager beans;

    @Test
    void batonStartsAndWorksWithoutTheHealthApi() {
        assertThatThrownBy(() -> Class.forName("org.eclipse.microprofile.health.HealthCheck"))
                .as("this test runs without the Health API on the class path")
                .isInstanceOf(ClassNotFoundException.class);

        try (Lock lock = locks.acquire("no-health")) {
            assertThat(lock.isHeld()).isTrue();
        }
        // By name: the check classes cannot even be loaded here.
        assertThat(beans.getBeans(Object.class, Any.Literal.INSTANCE)).extracting(bean -> bean.getBeanClass().getName())
                .contains(BatonExtension.class.getPackageName() + ".LockRuntime")
                .doesNotContain(HealthExtension.class.getPackageName() + ".StoresReadinessCheck",
                        HealthExtension.class.getPackageName() + ".RenewalsLivenessCheck");
    }
}
