package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import io.smallrye.metrics.MetricRegistryProducer;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run by the surefire execution {@code mp-metrics-without-opentelemetry}, whose class path lacks the
 * OpenTelemetry API but has MicroProfile Metrics 5 (SmallRye Metrics), as a server with MicroProfile Metrics
 * only: the metrics go to the application's registry, no span event is attempted, nothing fails.
 */
@BatonTest
@ExtendWith(EmptyMetricRegistries.class)
@AddBeanClasses(MetricRegistryProducer.class)
class WithoutOpenTelemetryTest {

    @Inject
    Locks locks;

    @Inject
    MetricRegistry registry;

    @Inject
    BeanManager beans;

    @Test
    void theOpenTelemetryApiIsAbsent() {
        assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.OpenTelemetry"))
                .as("this test runs without the OpenTelemetry API")
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void acquisitionsAreCountedInTheApplicationsRegistry() throws Exception {
        assertThat(Meters.detect(true, beans)).hasToString("MicroProfile Metrics");

        try (Lock held = locks.acquire("solo")) {
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire("solo"))
                            .get())
                    .isEmpty();
        }
        locks.runWithLock("solo", lock -> {});

        assertThat(EmptyMetricRegistries.acquisitions(registry, "default", "acquired"))
                .isEqualTo(2);
        assertThat(EmptyMetricRegistries.acquisitions(registry, "default", "timed_out"))
                .isEqualTo(1);
        assertThat(registry.getGauge(new MetricID(
                                "baton.locks.held",
                                new Tag("baton_manager", "default"),
                                new Tag("baton_store", "memory")))
                        .getValue())
                .isEqualTo(0L);
    }
}
