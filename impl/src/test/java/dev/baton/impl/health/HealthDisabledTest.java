package dev.baton.impl.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.WithConfig;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.inject.Inject;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, HealthExtension.class})
@AddBeanClasses(SmallRyeHealthReporter.class)
@WithConfig("baton.health.enabled=false")
class HealthDisabledTest {

    @Inject
    SmallRyeHealthReporter reporter;

    @Test
    void noCheckIsRegisteredWhenHealthIsDisabled() {
        assertThat(reporter.getHealth().getPayload().toString())
                .doesNotContain(StoresReadinessCheck.NAME)
                .doesNotContain(RenewalsLivenessCheck.NAME);
    }
}
