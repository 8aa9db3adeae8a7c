package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lock;
import dev.baton.LockAlreadyHeldException;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import dev.baton.tck.runtime.metrics.PrometheusText;
import io.smallrye.metrics.MetricRegistryProducer;
import io.smallrye.metrics.SharedMetricRegistries;
import io.smallrye.metrics.exporters.PrometheusMetricsExporter;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where the OpenTelemetry API is present but meters nothing (no {@code OpenTelemetry} bean, no global instance
 * set: as on a server whose MicroProfile Telemetry has its SDK disabled) and the application has a MicroProfile
 * Metrics 5 {@code MetricRegistry} (SmallRye Metrics 5.0), Baton's metrics go to that registry: every one
 * counted exactly after a scripted workload, and scraped in Prometheus text as servers show it.
 */
@BatonTest
@ExtendWith(EmptyMetricRegistries.class)
@AddBeanClasses(MetricRegistryProducer.class)
@WithConfig({"baton.store=memory", "baton.managers=mp", "baton.ttl=1500ms", "baton.admin.force-release=true"})
class MpMetricsTest {

    static final int ACQUISITIONS = 5;
    static final int TIMEOUTS = 4;

    @Inject
    Locks locks;

    @Inject
    MetricRegistry registry;

    @AfterAll
    static void theHeldGaugesAreRemovedWithTheApplication() {
        assertThat(SharedMetricRegistries.getOrCreate(MetricRegistry.APPLICATION_SCOPE)
                        .getGauges()
                        .keySet())
                .as("no gauge reads the state of a stopped application")
                .extracting(MetricID::getName)
                .doesNotContain("baton.locks.held");
    }

    private static Tag[] tags(String manager, String... more) {
        Tag[] tags = new Tag[2 + more.length / 2];
        tags[0] = new Tag("baton_manager", manager);
        tags[1] = new Tag("baton_store", "memory");
        for (int i = 0; i < more.length; i += 2) {
            tags[2 + i / 2] = new Tag(more[i], more[i + 1]);
        }
        return tags;
    }

    private long count(String name, String manager, String... more) {
        Counter counter = registry.getCounter(new MetricID(name, tags(manager, more)));
        return counter == null ? 0 : counter.getCount();
    }

    private long timed(String name, String manager, String... more) {
        Timer timer = registry.getTimer(new MetricID(name, tags(manager, more)));
        return timer == null ? 0 : timer.getCount();
    }

    private long held(String manager) {
        return registry.getGauge(new MetricID("baton.locks.held", tags(manager)))
                .getValue()
                .longValue();
    }

    @Test
    void aScriptedWorkloadIsCountedExactlyInTheApplicationsRegistry() throws Exception {
        Locks mp = locks.manager("mp");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            // N acquisitions on the manager "mp"; in the first, a second ask for the same key fails (not reentrant)
            for (int i = 0; i < ACQUISITIONS; i++) {
                String key = "n" + i;
                mp.runWithLock(key, lock -> {
                    if (key.equals("n0")) {
                        assertThatThrownBy(() -> mp.tryAcquire("n0")).isInstanceOf(LockAlreadyHeldException.class);
                    }
                });
            }
            // M timeouts on "mp", against a holder on the default manager (the same store, the same key)
            try (Lock busy = locks.acquire("busy", LockOptions.defaults().withTtl(Duration.ofMinutes(1)))) {
                for (int i = 0; i < TIMEOUTS - 1; i++) {
                    assertThat(CompletableFuture.supplyAsync(() -> mp.tryAcquire("busy"), other)
                                    .get(10, TimeUnit.SECONDS))
                            .isEmpty();
                }
                CompletableFuture<?> waiting = CompletableFuture.runAsync(
                        () -> mp.acquire("busy", LockOptions.defaults().withTimeout(Duration.ofMillis(50))), other);
                assertThat(waiting)
                        .failsWithin(Duration.ofSeconds(10))
                        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                        .withCauseInstanceOf(LockTimeoutException.class);
                assertThat(held("default")).isEqualTo(1);
            }
        } finally {
            other.shutdownNow();
        }

        assertThat(count("baton.lock.acquisitions", "mp", "baton_outcome", "acquired"))
                .isEqualTo(ACQUISITIONS);
        assertThat(count("baton.lock.acquisitions", "mp", "baton_outcome", "timed_out"))
                .isEqualTo(TIMEOUTS);
        assertThat(count("baton.lock.acquisitions", "mp", "baton_outcome", "failed"))
                .isEqualTo(1);
        assertThat(timed("baton.lock.wait.duration", "mp", "baton_outcome", "acquired"))
                .isEqualTo(ACQUISITIONS);
        assertThat(timed("baton.lock.wait.duration", "mp", "baton_outcome", "timed_out"))
                .isEqualTo(TIMEOUTS);
        assertThat(timed("baton.lock.wait.duration", "mp", "baton_outcome", "failed"))
                .isEqualTo(1);
        assertThat(timed("baton.lock.hold.duration", "mp")).isEqualTo(ACQUISITIONS);
        assertThat(timed("baton.store.call.duration", "mp", "baton_store_operation", "release"))
                .isEqualTo(ACQUISITIONS);
        assertThat(timed("baton.store.call.duration", "mp", "baton_store_operation", "acquire"))
                .as("the acquisitions, the refusals and the waiting one's polls")
                .isGreaterThanOrEqualTo(ACQUISITIONS + TIMEOUTS);
        assertThat(held("mp")).isZero();
        assertThat(count("baton.lock.acquisitions", "default", "baton_outcome", "acquired"))
                .isEqualTo(1);
        assertThat(held("default")).isZero();

        // renewals, then a loss: the key freed by force, the holder disowned at its next renewal
        Lock renewed = locks.acquire("kept-leased");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> count("baton.lock.renewals", "default", "baton_outcome", "renewed") >= 2);
        assertThat(locks.forceRelease("kept-leased")).isTrue();
        assertThat(renewed.whenLost()
                        .toCompletableFuture()
                        .orTimeout(5, TimeUnit.SECONDS)
                        .join())
                .hasMessageContaining("no longer holds it");
        assertThat(count("baton.lock.losses", "default", "baton_loss_reason", "disowned"))
                .isEqualTo(1);
        assertThat(held("default"))
                .as("a lost lock until its holder gives it up")
                .isEqualTo(1);
        long renewals = count("baton.lock.renewals", "default", "baton_outcome", "renewed");
        long renewalCalls = timed("baton.store.call.duration", "default", "baton_store_operation", "renew_all")
                + timed("baton.store.call.duration", "default", "baton_store_operation", "renew");
        assertThat(renewalCalls)
                .as("one call per renewal of the one renewed lock, and the one that found it gone")
                .isEqualTo(renewals + 1);
        assertThat(count("baton.lock.renewals", "default", "baton_outcome", "failed"))
                .isZero();
        renewed.close();
        assertThat(held("default")).isZero();
        assertThat(timed("baton.lock.hold.duration", "default")).isEqualTo(2);

        // as a server's /metrics shows them
        PrometheusText scrape =
                PrometheusText.parse(new PrometheusMetricsExporter().exportOneScope(MetricRegistry.APPLICATION_SCOPE));
        Map<String, String> mpAcquired =
                Map.of("baton_manager", "mp", "baton_store", "memory", "baton_outcome", "acquired");
        assertThat(scrape.find("baton_lock_acquisitions_total", mpAcquired))
                .singleElement()
                .satisfies(sample -> assertThat(sample.value()).isEqualTo(ACQUISITIONS));
        assertThat(scrape.counter(
                        "baton_lock_acquisitions", Map.of("baton_manager", "mp", "baton_outcome", "timed_out")))
                .isEqualTo(TIMEOUTS);
        assertThat(scrape.counter(
                        "baton_lock_losses", Map.of("baton_manager", "default", "baton_loss_reason", "disowned")))
                .isEqualTo(1);
        assertThat(scrape.find("baton_locks_held", Map.of("baton_manager", "mp")))
                .singleElement()
                .satisfies(sample -> assertThat(sample.value()).isZero());
        assertThat(scrape.find("baton_lock_wait_duration_seconds_count", mpAcquired))
                .singleElement()
                .satisfies(sample -> assertThat(sample.value()).isEqualTo(ACQUISITIONS));
        assertThat(scrape.samples())
                .as("no label carries a key")
                .allSatisfy(sample -> assertThat(sample.labels().values()).doesNotContain("n0", "busy", "kept-leased"));
    }
}
