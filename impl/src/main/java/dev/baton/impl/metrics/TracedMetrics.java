package dev.baton.impl.metrics;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.LossKind;
import dev.baton.spi.KeyFormat;
import io.opentelemetry.api.common.Attributes;

/** Metrics recorded by another {@link EngineMetrics}, plus the OpenTelemetry span event of {@link SpanEvents}. */
final class TracedMetrics implements EngineMetrics {

    private final EngineMetrics metrics;
    private final Attributes base;

    TracedMetrics(EngineMetrics metrics, Attributes base) {
        this.metrics = metrics;
        this.base = base;
    }

    @Override
    public void acquisition(Outcome outcome, long waitNanos) {
        metrics.acquisition(outcome, waitNanos);
    }

    @Override
    public void acquiredOnThisThread(String key, KeyFormat keyFormat, long fencingToken) {
        metrics.acquiredOnThisThread(key, keyFormat, fencingToken);
        SpanEvents.acquired(base, key, keyFormat, fencingToken);
    }

    @Override
    public void holding() {
        metrics.holding();
    }

    @Override
    public void released(long holdNanos) {
        metrics.released(holdNanos);
    }

    @Override
    public void renewals(int renewed, int failed) {
        metrics.renewals(renewed, failed);
    }

    @Override
    public void lost(LossKind kind) {
        metrics.lost(kind);
    }

    @Override
    public void storeCall(String operation, long nanos) {
        metrics.storeCall(operation, nanos);
    }
}
