package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.smallrye.metrics.MetricRegistryProducer;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where the application has an {@code OpenTelemetry} bean (MicroProfile Telemetry) that meters, Baton's metrics go
 * to it, even beside a MicroProfile Metrics registry: OpenTelemetry is chosen first.
 */
@BatonTest
@ExtendWith(EmptyMetricRegistries.class)
@AddBeanClasses({InMemoryTelemetry.class, MetricRegistryProducer.class})
class MetricsCdiTest {

    @Inject
    Locks locks;

    @Inject
    InMemoryMetricReader reader;

    @Inject
    MetricRegistry registry;

    @Test
    void acquisitionsOfTheInjectedLocksAreCountedOnTheApplicationsOpenTelemetry() {
        locks.runWithLock("counted", lock -> {});
        locks.tryAcquire("counted").orElseThrow().close();

        MetricData acquisitions = reader.collectAllMetrics().stream()
                .filter(m -> m.getName().equals("baton.lock.acquisitions"))
                .findFirst()
                .orElseThrow();

        Attributes acquired = Attributes.of(
                AttributeKey.stringKey("baton.manager"),
                "default",
                AttributeKey.stringKey("baton.store"),
                "memory",
                AttributeKey.stringKey("baton.outcome"),
                "acquired");
        assertThat(acquisitions.getLongSumData().getPoints()).anySatisfy(point -> {
            assertThat(point.getAttributes()).isEqualTo(acquired);
            assertThat(point.getValue()).isEqualTo(2);
        });
        assertThat(registry.getMetricIDs())
                .as("nothing in the MicroProfile Metrics registry")
                .isEmpty();
    }
}
