package dev.baton.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.health.HealthExtension;
import dev.baton.impl.jaxrs.LockTimeoutExceptionMapper;
import dev.baton.impl.metrics.Meters;
import dev.baton.impl.testing.TestConfig;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.time.Duration;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Run by the surefire execution {@code without-optional-apis}, whose class path lacks the MicroProfile
 * Health API (and SmallRye Health), the OpenTelemetry API, the MicroProfile Metrics API (and SmallRye Metrics)
 * and JSON-P: the extensions are installed, as their
 * service file installs them, and Baton still starts, takes locks and answers a 409.
 */
@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, HealthExtension.class})
class WithoutOptionalApisTest {

    @Inject
    Locks locks;

    @Inject
    BeanManager beans;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "org.eclipse.microprofile.health.HealthCheck",
                "io.opentelemetry.api.OpenTelemetry",
                "org.eclipse.microprofile.metrics.MetricRegistry",
                "jakarta.json.Json"
            })
    void theApiIsAbsent(String className) {
        assertThatThrownBy(() -> Class.forName(className))
                .as("this test runs without %s on the class path", className)
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void batonStartsAndWorksWithNoHealthCheckAndNoMetrics() {
        assertThat(Meters.detect(true, beans))
                .as("nothing to record metrics with")
                .isSameAs(Meters.NONE);
        try (Lock lock = locks.acquire("no-optional-apis")) {
            assertThat(lock.isHeld()).isTrue();
        }
        // By name: the check classes cannot even be loaded here.
        assertThat(beans.getBeans(Object.class, Any.Literal.INSTANCE))
                .extracting(bean -> bean.getBeanClass().getName())
                .contains(BatonExtension.class.getPackageName() + ".LockRuntime")
                .doesNotContain(
                        HealthExtension.class.getPackageName() + ".StoresReadinessCheck",
                        HealthExtension.class.getPackageName() + ".RenewalsLivenessCheck");
    }

    @Test
    void the409BodyIsWrittenWithoutJsonP() {
        Object body = new LockTimeoutExceptionMapper()
                .toResponse(new LockTimeoutException(
                        "k\"1", Duration.ofMillis(5), Duration.ofMillis(6), Duration.ofMillis(1_500)))
                .getEntity();

        assertThat(body)
                .asString()
                .startsWith("{\"type\":\"urn:dev.baton:problem:lock-timeout\",")
                .contains("\"key\":\"k\\\"1\"", "\"remainingLeaseMillis\":1500");
    }
}
