package dev.baton.impl.metrics;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.support.OptionalApis;
import dev.baton.spi.LockStore;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * Baton's metrics, one small abstraction over whatever records them: the OpenTelemetry metrics API
 * (MicroProfile Telemetry) where the application has it, nothing otherwise. Attributes are the manager
 * and the store, never the key (keys are unbounded). The OpenTelemetry types are named only in
 * {@link OtelMeters}, loaded once the API was found.
 */
public abstract class Meters {

    /** Records nothing. */
    public static final Meters NONE = new Meters() {
        @Override
        public EngineMetrics engine(String manager, String store) {
            return EngineMetrics.NONE;
        }
    };

    /**
     * @param enabled {@code baton.metrics.enabled}
     * @param beans where an {@code OpenTelemetry} bean is looked up (MicroProfile Telemetry provides one);
     *     without one, {@code GlobalOpenTelemetry}
     * @return the meters to use
     */
    public static Meters detect(boolean enabled, BeanManager beans) {
        if (!enabled || !OptionalApis.present("io.opentelemetry.api.OpenTelemetry", Meters.class.getClassLoader())) {
            return NONE;
        }
        return OtelMeters.create(beans);
    }

    /**
     * @param manager the manager's name, empty for the default
     * @param store how the store is named in the metrics
     * @return what the manager's engine reports to
     */
    public abstract EngineMetrics engine(String manager, String store);

    /**
     * @param store a manager's store
     * @param metrics the manager's metrics
     * @return the store, its calls timed when metrics are recorded
     */
    public LockStore metered(LockStore store, EngineMetrics metrics) {
        return metrics == EngineMetrics.NONE ? store : new MeteredStore(store, metrics);
    }
}
