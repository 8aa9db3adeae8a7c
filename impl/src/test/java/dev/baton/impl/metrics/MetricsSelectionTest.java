package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.testing.BatonTest;
import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.metrics.MetricRegistryProducer;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An {@code OpenTelemetry} bean that meters nothing (MicroProfile Telemetry with its SDK disabled, the default:
 * {@code OpenTelemetry.noop()}) beside a MicroProfile Metrics registry: the metrics go to the registry, and the
 * span event stays with OpenTelemetry. ({@link MetricsCdiTest}: a metering OpenTelemetry beside the registry is
 * chosen first.)
 */
@BatonTest
@ExtendWith(EmptyMetricRegistries.class)
@AddBeanClasses({MetricRegistryProducer.class, MetricsSelectionTest.DisabledTelemetry.class})
class MetricsSelectionTest {

    public static class DisabledTelemetry {
        @Produces
        @Singleton
        OpenTelemetry openTelemetry() {
            return OpenTelemetry.noop();
        }
    }

    @Inject
    Locks locks;

    @Inject
    MetricRegistry registry;

    @Inject
    BeanManager beans;

    @Test
    void aNoOpOpenTelemetryGivesWayToMicroProfileMetrics() {
        assertThat(Meters.detect(true, beans)).hasToString("MicroProfile Metrics, OpenTelemetry span events");

        locks.runWithLock("chosen", lock -> {});

        assertThat(EmptyMetricRegistries.acquisitions(registry, "default", "acquired"))
                .isEqualTo(1);
    }

    @Test
    void namedOpenTelemetryIsTakenEvenWhenItMetersNothing() {
        assertThat(Meters.detect(true, BatonConfig.MetricsApi.OPENTELEMETRY, beans))
                .hasToString("OpenTelemetry");
    }
}
