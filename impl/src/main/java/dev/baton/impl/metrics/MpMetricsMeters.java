package dev.baton.impl.metrics;

import static dev.baton.impl.metrics.LockMeter.ACQUISITIONS;
import static dev.baton.impl.metrics.LockMeter.HELD;
import static dev.baton.impl.metrics.LockMeter.HOLDS;
import static dev.baton.impl.metrics.LockMeter.LOSSES;
import static dev.baton.impl.metrics.LockMeter.RENEWALS;
import static dev.baton.impl.metrics.LockMeter.STORE_CALLS;
import static dev.baton.impl.metrics.LockMeter.WAITS;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.LossKind;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.metrics.LockMeter.MeterTag;
import jakarta.enterprise.inject.spi.AnnotatedField;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Gauge;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * {@link Meters} on MicroProfile Metrics 5, in the application's {@code MetricRegistry}: the metrics of
 * {@link LockMeter}, under the names {@link OtelMeters} records them by, counters as counters, the duration
 * histograms as timers, the up-down counter of held locks as a gauge. MicroProfile Metrics tag names cannot hold dots, so the
 * attributes become tags with underscores ({@code baton.manager} → {@code baton_manager}), which is also
 * what OpenTelemetry's Prometheus exporter makes of them.
 */
final class MpMetricsMeters extends Meters {

    /** The metadata of each metric of the catalogue: its name and description (no unit: timers keep their own). */
    static final Map<LockMeter, Metadata> METADATA = metadata();

    private final MetricRegistry registry;
    /** The gauges this application registered (they read its state): removed when it stops. */
    private final Map<MetricID, Gauge<?>> gauges = new ConcurrentHashMap<>();

    private MpMetricsMeters(MetricRegistry registry) {
        this.registry = registry;
    }

    private static Map<LockMeter, Metadata> metadata() {
        Map<LockMeter, Metadata> metadata = new EnumMap<>(LockMeter.class);
        for (LockMeter metric : LockMeter.values()) {
            metadata.put(
                    metric,
                    Metadata.builder()
                            .withName(metric.metricName())
                            .withDescription(metric.description())
                            .build());
        }
        return Collections.unmodifiableMap(metadata);
    }

    /**
     * @param beans where the application's {@code MetricRegistry} is looked up
     * @return the meters, or {@code null} when the application has no {@code MetricRegistry} bean
     */
    static Meters create(BeanManager beans) {
        try {
            if (beans.resolve(beans.getBeans(MetricRegistry.class)) == null) {
                return null;
            }
            // Through an injection point of a field, as an application's @Inject MetricRegistry is: the registry
            // producers (SmallRye Metrics) read the field's @RegistryScope, and fail on the bare one of
            // BeanManager.createInstance(), which has no annotated member.
            AnnotatedField<? super RegistryInjection> field = beans.createAnnotatedType(RegistryInjection.class)
                    .getFields()
                    .iterator()
                    .next();
            InjectionPoint injection = beans.createInjectionPoint(field);
            return new MpMetricsMeters(
                    (MetricRegistry) beans.getInjectableReference(injection, beans.createCreationalContext(null)));
        } catch (RuntimeException e) {
            BatonLog.debug("No MicroProfile Metrics registry to record Baton's metrics in: " + e);
            return null;
        }
    }

    /** Describes the injection point the registry is looked up through; never instantiated. */
    static final class RegistryInjection {
        @Inject
        MetricRegistry registry;

        private RegistryInjection() {}
    }

    /** For tests: meters on a given registry. */
    static MpMetricsMeters on(MetricRegistry registry) {
        return new MpMetricsMeters(registry);
    }

    private static Metadata metadata(LockMeter metric) {
        return METADATA.get(metric);
    }

    @Override
    public EngineMetrics engine(String manager, String store) {
        try {
            return new Recorder(
                    new Tag(MeterTag.MANAGER.tagName(), managerName(manager)),
                    new Tag(MeterTag.STORE.tagName(), store));
        } catch (RuntimeException e) {
            // e.g. a metric of the same name but another type or tags, registered by someone else
            BatonLog.metricsUnavailable(manager, toString(), e);
            return EngineMetrics.NONE;
        }
    }

    @Override
    public void close() {
        // Only the gauges still this application's: a later deployment may have replaced one.
        gauges.forEach((id, gauge) -> {
            if (registry.getGauge(id) == gauge) {
                registry.remove(id);
            }
        });
        gauges.clear();
    }

    @Override
    public String toString() {
        return "MicroProfile Metrics";
    }

    /** One manager's metrics, each with its tags, looked up once. */
    private final class Recorder implements EngineMetrics {
        private final Tag[] base;
        private final Map<Outcome, Counter> acquisitions = new EnumMap<>(Outcome.class);
        private final Map<Outcome, Timer> waits = new EnumMap<>(Outcome.class);
        private final Map<LossKind, Counter> losses = new EnumMap<>(LossKind.class);
        private final Timer holds;
        private final AtomicLong held = new AtomicLong();
        private final Counter renewed;
        private final Counter renewalFailed;
        private final Map<String, Timer> storeCalls = new HashMap<>();

        Recorder(Tag... base) {
            this.base = base;
            for (Outcome outcome : Outcome.values()) {
                acquisitions.put(
                        outcome, registry.counter(metadata(ACQUISITIONS), tagged(ACQUISITIONS, outcome.label())));
                waits.put(outcome, registry.timer(metadata(WAITS), tagged(WAITS, outcome.label())));
            }
            for (LossKind kind : LossKind.values()) {
                losses.put(kind, registry.counter(metadata(LOSSES), tagged(LOSSES, kind.label())));
            }
            holds = registry.timer(metadata(HOLDS), base);
            renewed = registry.counter(metadata(RENEWALS), tagged(RENEWALS, LockMeter.RENEWED));
            renewalFailed = registry.counter(metadata(RENEWALS), tagged(RENEWALS, LockMeter.RENEWAL_FAILED));
            // all at once, here, where a failure to register is handled, never later on a store call
            for (String operation : MeteredStore.OPERATIONS) {
                storeCalls.put(operation, registry.timer(metadata(STORE_CALLS), tagged(STORE_CALLS, operation)));
            }
            registerHeld();
        }

        /** A gauge reads a value object: one left by an earlier deployment in a shared registry is replaced. */
        private void registerHeld() {
            MetricID id = new MetricID(HELD.metricName(), base);
            if (registry.getGauge(id) != null) {
                registry.remove(id);
            }
            gauges.put(id, registry.gauge(metadata(HELD), held, AtomicLong::get, base));
        }

        /** @return the manager's tags and the metric's own tag, set to {@code value} */
        private Tag[] tagged(LockMeter metric, String value) {
            Tag[] tags = List.of(base).toArray(new Tag[base.length + 1]);
            tags[base.length] = new Tag(metric.tag().orElseThrow().tagName(), value);
            return tags;
        }

        @Override
        public void acquisition(Outcome outcome, long waitNanos) {
            acquisitions.get(outcome).inc();
            waits.get(outcome).update(Duration.ofNanos(waitNanos));
        }

        @Override
        public void holding() {
            held.incrementAndGet();
        }

        @Override
        public void released(long holdNanos) {
            held.decrementAndGet();
            holds.update(Duration.ofNanos(holdNanos));
        }

        @Override
        public void renewals(int ok, int failed) {
            if (ok > 0) {
                renewed.inc(ok);
            }
            if (failed > 0) {
                renewalFailed.inc(failed);
            }
        }

        @Override
        public void lost(LossKind kind) {
            losses.get(kind).inc();
        }

        @Override
        public void storeCall(String operation, long nanos) {
            Timer timer = storeCalls.get(operation);
            if (timer != null) {
                timer.update(Duration.ofNanos(nanos));
            }
        }
    }
}
