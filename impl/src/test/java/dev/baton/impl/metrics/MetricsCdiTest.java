package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.smallrye.metrics.MetricRegistryProducer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
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
@AddBeanClasses({MetricsCdiTest.Telemetry.class, MetricRegistryProducer.class})
class MetricsCdiTest {

    static final InMemoryMetricReader READER = InMemoryMetricReader.create();

    public static class Telemetry {
        @Produces
        @Singleton
        OpenTelemetry openTelemetry() {
            return OpenTelemetrySdk.builder()
                    .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(READER).build()).build();
        }
    }

    @Inject
    Locks locks;

    @Inject
    MetricRegistry registry;

    @Test
    void acquisitionsOfTheInjectedLocksAreCountedOnTheApplicationsOpenTelemetry() {
        locks.runWithLock("counted", lock -> { });
        locks.tryAcquire("counted").orElseThrow().close();

        MetricData acquisitions = READER.collectAllMetrics().stream()
                .filter(m -> m.getName().equals("baton.lock.acquisitions")).findFirst().orElseThrow();

        Attributes acquired = Attributes.of(AttributeKey.stringKey("baton.manager"), "default",
                AttributeKey.stringKey("baton.store"), "memory", AttributeKey.stringKey("baton.outcome"), "acquired");
        assertThat(acquisitions.getLongSumData().getPoints()).anySatisfy(point -> {
            assertThat(point.getAttributes()).isEqualTo(acquired);
            assertThat(point.getValue()).isEqualTo(2);
        });
        assertThat(registry.getMetricIDs()).as("nothing in the MicroProfile Metrics registry").isEmpty();
    }
}
