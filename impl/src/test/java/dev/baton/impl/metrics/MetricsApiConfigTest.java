package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.smallrye.metrics.MetricRegistryProducer;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code baton.metrics.api=microprofile-metrics}: the metrics go to the MicroProfile Metrics registry although
 * the application's OpenTelemetry meters (a server whose OpenTelemetry exports elsewhere, while {@code /metrics}
 * is what is scraped).
 */
@BatonTest
@ExtendWith(EmptyMetricRegistries.class)
@WithConfig("baton.metrics.api=microprofile-metrics")
@AddBeanClasses({MetricRegistryProducer.class, InMemoryTelemetry.class})
class MetricsApiConfigTest {

    @Inject
    Locks locks;

    @Inject
    InMemoryMetricReader reader;

    @Inject
    MetricRegistry registry;

    @Test
    void theNamedApiRecordsTheMetrics() {
        locks.runWithLock("configured", lock -> {});

        assertThat(EmptyMetricRegistries.acquisitions(registry, "default", "acquired"))
                .isEqualTo(1);
        assertThat(reader.collectAllMetrics())
                .as("nothing on the OpenTelemetry meter")
                .isEmpty();
    }
}
