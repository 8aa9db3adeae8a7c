package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Holder;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every metric after a scripted workload, read from the OpenTelemetry SDK's in-memory reader. */
class MetricsTest {

    private final InMemoryMetricReader reader = InMemoryMetricReader.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setMeterProvider(
                    SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build();
    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final MemoryLockStore memory = new MemoryLockStore();
    private volatile boolean down;
    /** Every acquire call that reached the store. */
    private final java.util.concurrent.atomic.AtomicInteger acquireCalls =
            new java.util.concurrent.atomic.AtomicInteger();

    private final ForwardingLockStore store = new ForwardingLockStore(memory) {
        @Override
        public dev.baton.spi.AcquireResult acquire(Acquisition acquisition) {
            acquireCalls.incrementAndGet();
            if (down) {
                throw new LockStoreException("down (test)");
            }
            return super.acquire(acquisition);
        }

        @Override
        public String toString() {
            return "memory";
        }
    };
    private final Meters meters = OtelMeters.on(sdk);
    private final EngineMetrics metrics = meters.engine("reports", "memory");
    private final LockEngine engine = new LockEngine(
            new ManagerSettings("reports", Optional.empty(), 300, 1_000, "", 0, false),
            meters.metered(store, metrics),
            scheduler,
            Engines.STORE_CALLS,
            LockListener.NONE,
            metrics);
    /** Another instance on the same store, not metered: holds keys the metered one waits for. */
    private final LockEngine elsewhere = Engines.engine(memory, scheduler, 5_000, 1_000);

    @AfterEach
    void stop() {
        engine.close();
        elsewhere.close();
        scheduler.shutdownNow();
        sdk.close();
    }

    private static final Attributes REPORTS = Attributes.of(
            AttributeKey.stringKey("baton.manager"), "reports", AttributeKey.stringKey("baton.store"), "memory");

    private static Attributes with(String key, String value) {
        return REPORTS.toBuilder().put(key, value).build();
    }

    private static Optional<MetricData> metric(Collection<MetricData> all, String name) {
        return all.stream().filter(m -> m.getName().equals(name)).findFirst();
    }

    private static long sum(Collection<MetricData> all, String name, Attributes attributes) {
        return metric(all, name)
                .map(m -> m.getLongSumData().getPoints().stream()
                        .filter(p -> p.getAttributes().equals(attributes))
                        .mapToLong(LongPointData::getValue)
                        .sum())
                .orElse(0L);
    }

    private static long count(Collection<MetricData> all, String name, Attributes attributes) {
        return metric(all, name)
                .map(m -> m.getHistogramData().getPoints().stream()
                        .filter(p -> p.getAttributes().equals(attributes))
                        .mapToLong(HistogramPointData::getCount)
                        .sum())
                .orElse(0L);
    }

    @Test
    void aScriptedWorkloadIsCountedExactly() {
        for (int i = 0; i < 5; i++) {
            engine.acquire("n" + i, 300, 1_000, true).close();
        }
        HeldLock busy = elsewhere.acquire("busy", 5_000, 1_000, true);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> engine.acquire("busy", 300, 0, false)).isInstanceOf(LockTimeoutException.class);
        }
        assertThatThrownBy(() -> engine.acquire("busy", 300, 50, true)).isInstanceOf(LockTimeoutException.class);
        down = true;
        assertThatThrownBy(() -> engine.acquire("down", 300, 0, false)).isInstanceOf(LockStoreException.class);
        down = false;

        Collection<MetricData> all = reader.collectAllMetrics();

        assertThat(sum(all, "baton.lock.acquisitions", with("baton.outcome", "acquired")))
                .isEqualTo(5);
        assertThat(sum(all, "baton.lock.acquisitions", with("baton.outcome", "timed_out")))
                .isEqualTo(4);
        assertThat(sum(all, "baton.lock.acquisitions", with("baton.outcome", "failed")))
                .isEqualTo(1);
        assertThat(count(all, "baton.lock.wait.duration", with("baton.outcome", "acquired")))
                .isEqualTo(5);
        assertThat(count(all, "baton.lock.wait.duration", with("baton.outcome", "timed_out")))
                .isEqualTo(4);
        assertThat(count(all, "baton.lock.hold.duration", REPORTS)).isEqualTo(5);
        assertThat(sum(all, "baton.locks.held", REPORTS)).isZero();
        assertThat(metric(all, "baton.lock.wait.duration").orElseThrow().getUnit())
                .isEqualTo("s");
        assertThat(count(all, "baton.store.call.duration", with("baton.store.operation", "acquire")))
                .as("every acquire call, the waiting one's polls included")
                .isEqualTo(acquireCalls.get())
                .isGreaterThanOrEqualTo(10);
        assertThat(count(all, "baton.store.call.duration", with("baton.store.operation", "release")))
                .isEqualTo(5);
        assertThat(all)
                .as("no attribute carries a key")
                .allSatisfy(m -> assertThat(m.getData().getPoints())
                        .allSatisfy(p -> assertThat(
                                        p.getAttributes().asMap().values().toString())
                                .doesNotContain("busy", "n0", "down")));
        busy.close();
    }

    @Test
    void heldLocksRenewalsAndLossesByReason() {
        // 1.5 s: a lease a loaded machine's scheduler stalls do not end before it is renewed
        HeldLock lock = engine.acquire("renewed", 1_500, 1_000, true);
        assertThat(sum(reader.collectAllMetrics(), "baton.locks.held", REPORTS)).isEqualTo(1);

        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        sum(reader.collectAllMetrics(), "baton.lock.renewals", with("baton.outcome", "renewed")) >= 1);
        Holder holder = memory.inspect("renewed").orElseThrow();
        assertThat(memory.release("renewed", holder.owner())).isTrue(); // freed by force: disowned at the next renewal
        assertThat(lock.whenLost()
                        .toCompletableFuture()
                        .orTimeout(5, TimeUnit.SECONDS)
                        .join())
                .hasMessageContaining("no longer holds it");

        Collection<MetricData> all = reader.collectAllMetrics();
        assertThat(sum(all, "baton.lock.losses", with("baton.loss.reason", "disowned")))
                .isEqualTo(1);
        assertThat(sum(all, "baton.locks.held", REPORTS))
                .as("until its holder gives it up")
                .isEqualTo(1);
        assertThat(count(all, "baton.store.call.duration", with("baton.store.operation", "renew_all")))
                .isPositive();
        lock.close();
        assertThat(sum(reader.collectAllMetrics(), "baton.locks.held", REPORTS)).isZero();
    }

    @Test
    void disabledOrAbsentMeansNothingIsRecordedAndTheStoreIsNotWrapped() {
        Meters none = Meters.detect(false, null);

        assertThat(none).isSameAs(Meters.NONE);
        assertThat(none.engine("x", "memory")).isSameAs(EngineMetrics.NONE);
        assertThat(none.metered(memory, EngineMetrics.NONE)).isSameAs(memory);
        List<MetricData> nothing = List.copyOf(reader.collectAllMetrics());
        assertThat(nothing).isEmpty();
    }

    @Test
    void anAcquisitionUnderARecordingSpanAddsAnEventWithKeyAndToken() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        OpenTelemetrySdk traced = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .build();
        Span request = traced.getTracer("test").spanBuilder("request").startSpan();
        long token;
        try (var scope = request.makeCurrent()) {
            HeldLock lock = engine.acquire("order:7", 300, 1_000, true);
            token = lock.fencingToken();
            lock.close();
        } finally {
            request.end();
        }
        engine.acquire("outside", 300, 1_000, true).close(); // no span: nothing to record, nothing fails

        assertThat(spans.getFinishedSpanItems())
                .singleElement()
                .satisfies(span -> assertThat(span.getEvents()).singleElement().satisfies(event -> {
                    assertThat(event.getName()).isEqualTo("baton.lock.acquired");
                    assertThat(event.getAttributes().get(AttributeKey.stringKey("baton.lock.key")))
                            .isEqualTo("order:7");
                    assertThat(event.getAttributes().get(AttributeKey.longKey("baton.lock.fencing_token")))
                            .isEqualTo(token);
                    assertThat(event.getAttributes().get(AttributeKey.stringKey("baton.manager")))
                            .isEqualTo("reports");
                }));
        traced.close();
    }
}
