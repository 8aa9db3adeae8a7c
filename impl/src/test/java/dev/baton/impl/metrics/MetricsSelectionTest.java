package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.metrics.MetricRegistryProducer;
import io.smallrye.metrics.SharedMetricRegistries;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An {@code OpenTelemetry} bean that meters nothing (MicroProfile Telemetry with its SDK disabled, the default:
 * {@code OpenTelemetry.noop()}) beside a MicroProfile Metrics registry: the metrics go to the registry, and the
 * span event stays with OpenTelemetry. ({@link MetricsCdiTest}: a metering OpenTelemetry beside the registry is
 * chosen first.)
 */
@BatonTest
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

    @BeforeAll
    @AfterAll
    static void emptyRegistry() {
        SharedMetricRegistries.drop(MetricRegistry.APPLICATION_SCOPE);
    }

    @Test
    void aNoOpOpenTelemetryGivesWayToMicroProfileMetrics() {
        assertThat(Meters.detect(true, beans)).hasToString("MicroProfile Metrics, OpenTelemetry span events");

        locks.runWithLock("chosen", lock -> { });

        assertThat(registry.getCounter(new MetricID("baton.lock.acquisitions", new Tag("baton_manager", "default"),
                new Tag("baton_store", "memory"), new Tag("baton_outcome", "acquired"))).getCount()).isEqualTo(1);
    }
}
