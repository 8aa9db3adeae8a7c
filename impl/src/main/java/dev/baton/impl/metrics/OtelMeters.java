package dev.baton.impl.metrics;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.LossKind;
import dev.baton.spi.KeyFormat;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongUpDownCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Meters} on the OpenTelemetry metrics API (meter {@value #SCOPE}): the metrics of {@link LockMeter}.
 * Durations are histograms in seconds, as OpenTelemetry's conventions have them. An acquisition on a thread
 * with a recording span adds the event of {@link SpanEvents} to it.
 */
final class OtelMeters extends Meters {

    static final String SCOPE = "dev.baton";

    private final LongCounter acquisitions;
    private final DoubleHistogram waits;
    private final DoubleHistogram holds;
    private final LongUpDownCounter held;
    private final LongCounter renewals;
    private final LongCounter losses;
    private final DoubleHistogram storeCalls;

    private OtelMeters(OpenTelemetry openTelemetry) {
        Meter meter = openTelemetry.getMeter(SCOPE);
        acquisitions = counter(meter, LockMeter.ACQUISITIONS);
        waits = histogram(meter, LockMeter.WAITS);
        holds = histogram(meter, LockMeter.HOLDS);
        held = meter.upDownCounterBuilder(LockMeter.HELD.metricName())
                .setUnit(LockMeter.HELD.unit())
                .setDescription(LockMeter.HELD.description())
                .build();
        renewals = counter(meter, LockMeter.RENEWALS);
        losses = counter(meter, LockMeter.LOSSES);
        storeCalls = histogram(meter, LockMeter.STORE_CALLS);
    }

    private static LongCounter counter(Meter meter, LockMeter metric) {
        return meter.counterBuilder(metric.metricName())
                .setUnit(metric.unit())
                .setDescription(metric.description())
                .build();
    }

    private static DoubleHistogram histogram(Meter meter, LockMeter metric) {
        return meter.histogramBuilder(metric.metricName())
                .setUnit(metric.unit())
                .setDescription(metric.description())
                .build();
    }

    /**
     * @param beans where the {@code OpenTelemetry} bean is looked up
     * @param evenNoOp whether one that meters nothing is taken all the same (configured so)
     * @return the meters, or {@code null} where OpenTelemetry meters nothing: no bean and no global instance
     *     set, or (unless {@code evenNoOp}) one whose meter provider is the no-op one (MicroProfile Telemetry with
     *     the SDK disabled, as it is unless {@code otel.sdk.disabled=false})
     */
    static Meters create(BeanManager beans, boolean evenNoOp) {
        OpenTelemetry openTelemetry = openTelemetry(beans);
        if (openTelemetry == null || !evenNoOp && openTelemetry.getMeterProvider() == MeterProvider.noop()) {
            return null;
        }
        return new OtelMeters(openTelemetry);
    }

    /** For tests: meters on a given OpenTelemetry. */
    static Meters on(OpenTelemetry openTelemetry) {
        return new OtelMeters(openTelemetry);
    }

    /**
     * The server's (MicroProfile Telemetry's) bean where there is one, else the global instance once someone
     * set it: never {@code GlobalOpenTelemetry.get()} before, which would fix the global to a no-op and make
     * the application's own {@code set} fail.
     */
    private static OpenTelemetry openTelemetry(BeanManager beans) {
        try {
            Instance<OpenTelemetry> bean = beans.createInstance().select(OpenTelemetry.class);
            if (bean.isResolvable()) {
                return bean.get();
            }
        } catch (RuntimeException e) {
            // no usable bean: fall back to the global instance
        }
        return GlobalOpenTelemetry.isSet() ? GlobalOpenTelemetry.get() : null;
    }

    @Override
    public String toString() {
        return "OpenTelemetry";
    }

    @Override
    public EngineMetrics engine(String manager, String store) {
        return new Recorder(SpanEvents.base(managerName(manager), store));
    }

    /** One manager's instruments' attribute sets, built once. */
    private final class Recorder implements EngineMetrics {
        private final Attributes base;
        private final Map<Outcome, Attributes> acquired = new EnumMap<>(Outcome.class);
        private final Map<Outcome, Attributes> waited = new EnumMap<>(Outcome.class);
        private final Map<LossKind, Attributes> reasons = new EnumMap<>(LossKind.class);
        private final Attributes renewed;
        private final Attributes renewalFailed;
        private final Map<String, Attributes> operations = new ConcurrentHashMap<>();

        Recorder(Attributes base) {
            this.base = base;
            for (Outcome outcome : Outcome.values()) {
                acquired.put(outcome, tagged(LockMeter.ACQUISITIONS, outcome.label()));
                waited.put(outcome, tagged(LockMeter.WAITS, outcome.label()));
            }
            for (LossKind kind : LossKind.values()) {
                reasons.put(kind, tagged(LockMeter.LOSSES, kind.label()));
            }
            renewed = tagged(LockMeter.RENEWALS, LockMeter.RENEWED);
            renewalFailed = tagged(LockMeter.RENEWALS, LockMeter.RENEWAL_FAILED);
        }

        /** @return the manager's attributes and the metric's own tag, set to {@code value} */
        private Attributes tagged(LockMeter metric, String value) {
            return base.toBuilder()
                    .put(metric.tag().orElseThrow().attribute(), value)
                    .build();
        }

        @Override
        public void acquisition(Outcome outcome, long waitNanos) {
            acquisitions.add(1, acquired.get(outcome));
            waits.record(seconds(waitNanos), waited.get(outcome));
        }

        @Override
        public void acquiredOnThisThread(String key, KeyFormat keyFormat, long fencingToken) {
            SpanEvents.acquired(base, key, keyFormat, fencingToken);
        }

        @Override
        public void holding() {
            held.add(1, base);
        }

        @Override
        public void released(long holdNanos) {
            held.add(-1, base);
            holds.record(seconds(holdNanos), base);
        }

        @Override
        public void renewals(int ok, int failed) {
            if (ok > 0) {
                renewals.add(ok, renewed);
            }
            if (failed > 0) {
                renewals.add(failed, renewalFailed);
            }
        }

        @Override
        public void lost(LossKind kind) {
            losses.add(1, reasons.get(kind));
        }

        @Override
        public void storeCall(String operation, long nanos) {
            storeCalls.record(
                    seconds(nanos), operations.computeIfAbsent(operation, op -> tagged(LockMeter.STORE_CALLS, op)));
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
