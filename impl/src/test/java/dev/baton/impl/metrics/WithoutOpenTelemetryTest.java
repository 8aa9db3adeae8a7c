package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import io.smallrye.metrics.MetricRegistryProducer;
import io.smallrye.metrics.SharedMetricRegistries;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Run by the surefire execution {@code mp-metrics-without-opentelemetry}, whose class path lacks the
 * OpenTelemetry API but has MicroProfile Metrics 5 (SmallRye Metrics), as a server with MicroProfile Metrics
 * only: the metrics go to the application's registry, no span event is attempted, nothing fails.
 */
@BatonTest
@AddBeanClasses(MetricRegistryProducer.class)
class WithoutOpenTelemetryTest {

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
    void theOpenTelemetryApiIsAbsent() {
        assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.OpenTelemetry"))
                .as("this test runs without the OpenTelemetry API").isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void acquisitionsAreCountedInTheApplicationsRegistry() throws Exception {
        assertThat(Meters.detect(true, beans)).hasToString("MicroProfile Metrics");

        try (Lock held = locks.acquire("solo")) {
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire("solo")).get()).isEmpty();
        }
        locks.runWithLock("solo", lock -> { });

        assertThat(count("acquired")).isEqualTo(2);
        assertThat(count("timed_out")).isEqualTo(1);
        assertThat(registry.getGauge(new MetricID("baton.locks.held", new Tag("baton_manager", "default"),
                new Tag("baton_store", "memory"))).getValue()).isEqualTo(0L);
    }

    private long count(String outcome) {
        return registry.getCounter(new MetricID("baton.lock.acquisitions", new Tag("baton_manager", "default"),
                new Tag("baton_store", "memory"), new Tag("baton_outcome", outcome))).getCount();
    }
}
