package dev.baton.impl.metrics;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.LossKind;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
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
 * {@link Meters} on the OpenTelemetry metrics API (meter {@value #SCOPE}). Durations are histograms in
 * seconds, as OpenTelemetry's conventions have them. An acquisition on a thread with a recording span adds
 * the event of {@link SpanEvents} to it.
 */
final class OtelMeters extends Meters {

    static final String SCOPE = "dev.baton";

    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("baton.outcome");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("baton.loss.reason");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("baton.store.operation");

    private final LongCounter acquisitions;
    private final DoubleHistogram waits;
    private final DoubleHistogram holds;
    private final LongUpDownCounter held;
    private final LongCounter renewals;
    private final LongCounter losses;
    private final DoubleHistogram storeCalls;

    private OtelMeters(OpenTelemetry openTelemetry) {
        Meter meter = openTelemetry.getMeter(SCOPE);
        acquisitions = meter.counterBuilder("baton.lock.acquisitions")
                .setUnit("{acquisition}")
                .setDescription("Lock acquisitions, by outcome: acquired, timed_out, failed")
                .build();
        waits = meter.histogramBuilder("baton.lock.wait.duration")
                .setUnit("s")
                .setDescription("How long acquisitions took, from the call until acquired, timed out or failed")
                .build();
        holds = meter.histogramBuilder("baton.lock.hold.duration")
                .setUnit("s")
                .setDescription("How long locks were held, from acquisition until given up")
                .build();
        held = meter.upDownCounterBuilder("baton.locks.held")
                .setUnit("{lock}")
                .setDescription(
                        "Locks held now, from acquisition until released (a lost lock until its holder gives it up)")
                .build();
        renewals = meter.counterBuilder("baton.lock.renewals")
                .setUnit("{renewal}")
                .setDescription("Lease renewals, by outcome: renewed, failed (the store call failed; retried)")
                .build();
        losses = meter.counterBuilder("baton.lock.losses")
                .setUnit("{loss}")
                .setDescription("Locks lost, by reason")
                .build();
        storeCalls = meter.histogramBuilder("baton.store.call.duration")
                .setUnit("s")
                .setDescription("How long calls to the lock store took, by operation")
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
        private final Map<Outcome, Attributes> outcomes = new EnumMap<>(Outcome.class);
        private final Map<LossKind, Attributes> reasons = new EnumMap<>(LossKind.class);
        private final Attributes renewed;
        private final Attributes renewalFailed;
        private final Map<String, Attributes> operations = new ConcurrentHashMap<>();

        Recorder(Attributes base) {
            this.base = base;
            for (Outcome outcome : Outcome.values()) {
                outcomes.put(
                        outcome, base.toBuilder().put(OUTCOME, outcome.label()).build());
            }
            for (LossKind kind : LossKind.values()) {
                reasons.put(kind, base.toBuilder().put(REASON, kind.label()).build());
            }
            renewed = base.toBuilder().put(OUTCOME, "renewed").build();
            renewalFailed = base.toBuilder().put(OUTCOME, "failed").build();
        }

        @Override
        public void acquisition(Outcome outcome, long waitNanos) {
            Attributes attributes = outcomes.get(outcome);
            acquisitions.add(1, attributes);
            waits.record(seconds(waitNanos), attributes);
        }

        @Override
        public void acquiredOnThisThread(String key, long fencingToken) {
            SpanEvents.acquired(base, key, fencingToken);
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
                    seconds(nanos),
                    operations.computeIfAbsent(
                            operation, op -> base.toBuilder().put(OPERATION, op).build()));
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
