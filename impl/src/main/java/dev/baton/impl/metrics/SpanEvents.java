package dev.baton.impl.metrics;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.spi.KeyFormat;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;

/**
 * The trace side: an acquisition on a thread with a recording OpenTelemetry span adds the event
 * {@value #ACQUIRED_EVENT} to that span, with the key and the fencing token. An event rather than a child
 * span: it needs no tracer (only the current context, whichever SDK the server installed), marks the moment
 * the request got its lock without changing the trace's shape, and the wait it ends is in the metrics. The
 * key is fine here (one request's event), never on a metric. Loaded only once the OpenTelemetry API was found.
 */
final class SpanEvents {

    static final AttributeKey<String> MANAGER = AttributeKey.stringKey(LockMeter.MeterTag.MANAGER.attribute());
    static final AttributeKey<String> STORE = AttributeKey.stringKey(LockMeter.MeterTag.STORE.attribute());
    static final AttributeKey<String> KEY = AttributeKey.stringKey("baton.lock.key");
    static final AttributeKey<Long> TOKEN = AttributeKey.longKey("baton.lock.fencing_token");
    static final String ACQUIRED_EVENT = "baton.lock.acquired";

    private SpanEvents() {}

    /**
     * @param base the manager's attributes ({@link #MANAGER}, {@link #STORE})
     * @param key the application's key
     * @param keyFormat how the event writes it ({@code baton.log.keys}), applied only when a span records it
     * @param fencingToken the acquisition's token
     */
    static void acquired(Attributes base, String key, KeyFormat keyFormat, long fencingToken) {
        Span span = Span.current();
        if (span.isRecording()) {
            span.addEvent(
                    ACQUIRED_EVENT,
                    base.toBuilder()
                            .put(KEY, keyFormat.format(key))
                            .put(TOKEN, fencingToken)
                            .build());
        }
    }

    /**
     * @param manager the manager as in the metrics ({@link Meters#managerName})
     * @param store the store as in the metrics
     * @return the attributes every event of this manager carries
     */
    static Attributes base(String manager, String store) {
        return Attributes.of(MANAGER, manager, STORE, store);
    }

    /**
     * Adds the span event to metrics recorded elsewhere (MicroProfile Metrics, or none), for servers whose
     * OpenTelemetry traces but does not meter.
     *
     * @param metrics what records the metrics
     * @param manager the manager as in the metrics
     * @param store the store as in the metrics
     * @return {@code metrics} that also adds the span event
     */
    static EngineMetrics around(EngineMetrics metrics, String manager, String store) {
        return new TracedMetrics(metrics, base(manager, store));
    }
}
