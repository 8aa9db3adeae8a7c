package dev.baton.impl.metrics;

import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.BatonConfig.MetricsApi;
import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.runtime.OptionalApis;
import dev.baton.spi.LockStore;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * Baton's metrics, one small abstraction over whatever records them. Chosen once, at deployment, in this
 * order (unless {@code baton.metrics.api} names one): the OpenTelemetry metrics API (MicroProfile Telemetry) where the application has it and it meters
 * ({@link OtelMeters}); else MicroProfile Metrics 5 where the application has it ({@link MpMetricsMeters});
 * else nothing. Where the OpenTelemetry API is present, acquisitions under a recording span add a span event
 * whichever records the metrics ({@link SpanEvents}). Dimensions are the manager and the store, never the key
 * (keys are unbounded). Each API's types are named only in the classes loaded once it was found.
 */
public abstract class Meters {

    private static final String OPENTELEMETRY = "io.opentelemetry.api.OpenTelemetry";
    private static final String MICROPROFILE_METRICS = "org.eclipse.microprofile.metrics.MetricRegistry";

    /** Records nothing. */
    public static final Meters NONE = new Meters() {
        @Override
        public EngineMetrics engine(String manager, String store) {
            return EngineMetrics.NONE;
        }

        @Override
        boolean records() {
            return false;
        }

        @Override
        public String toString() {
            return "none";
        }
    };

    /**
     * @param enabled {@code baton.metrics.enabled}: {@code false} records nothing, the span event neither
     * @param beans where the {@code OpenTelemetry} bean (MicroProfile Telemetry; without one, a
     *     {@code GlobalOpenTelemetry} someone set) or the application's {@code MetricRegistry} is looked up
     * @return the meters to use, chosen {@linkplain MetricsApi#AUTO automatically}
     */
    public static Meters detect(boolean enabled, BeanManager beans) {
        return detect(enabled, MetricsApi.AUTO, beans);
    }

    /**
     * @param enabled {@code baton.metrics.enabled}: {@code false} records nothing, the span event neither
     * @param api {@code baton.metrics.api}: which API records the metrics
     * @param beans where the {@code OpenTelemetry} bean or the application's {@code MetricRegistry} is looked up
     * @return the meters to use
     * @throws LockConfigurationException when {@code api} names an API the application does not have
     */
    public static Meters detect(boolean enabled, MetricsApi api, BeanManager beans) {
        Meters meters = enabled ? choose(api, beans) : NONE;
        BatonLog.debug("Baton's metrics: " + meters);
        return meters;
    }

    private static Meters choose(MetricsApi api, BeanManager beans) {
        ClassLoader loader = Meters.class.getClassLoader();
        boolean openTelemetry = OptionalApis.present(OPENTELEMETRY, loader);
        if (openTelemetry && api != MetricsApi.MICROPROFILE_METRICS) {
            try {
                Meters meters = OtelMeters.create(beans, api == MetricsApi.OPENTELEMETRY);
                if (meters != null) {
                    return meters;
                }
            } catch (LinkageError olderApi) {
                openTelemetry = false; // an API too old for what Baton calls: neither metrics nor span events
            }
        }
        Meters meters = null;
        if (api != MetricsApi.OPENTELEMETRY && OptionalApis.present(MICROPROFILE_METRICS, loader)) {
            try {
                meters = MpMetricsMeters.create(beans);
            } catch (LinkageError olderApi) {
                meters = null; // MicroProfile Metrics before 5.0
            }
        }
        if (meters == null && api != MetricsApi.AUTO) {
            throw new LockConfigurationException(
                    BatonConfig.METRICS_API + "=" + api.value() + ", but the application has "
                            + (api == MetricsApi.OPENTELEMETRY
                                    ? "no OpenTelemetry API with an OpenTelemetry bean or a GlobalOpenTelemetry set"
                                    : "no MicroProfile Metrics 5 API with a MetricRegistry bean")
                            + "; set it to auto, or remove it");
        }
        if (meters == null) {
            meters = NONE;
        }
        return openTelemetry ? new Traced(meters) : meters;
    }

    /**
     * @param manager the manager's name, empty for the default
     * @return how the manager is named in the metrics: {@code default} for the default one
     */
    static String managerName(String manager) {
        return manager.isEmpty() ? "default" : manager;
    }

    /**
     * @param manager the manager's name, empty for the default
     * @param store how the store is named in the metrics
     * @return what the manager's engine reports to
     */
    public abstract EngineMetrics engine(String manager, String store);

    /** @return whether metrics are recorded (so store calls are worth timing) */
    boolean records() {
        return true;
    }

    /**
     * @param store a manager's store
     * @param metrics the manager's metrics
     * @return the store, its calls timed when metrics are recorded
     */
    public LockStore metered(LockStore store, EngineMetrics metrics) {
        return records() && metrics != EngineMetrics.NONE ? new MeteredStore(store, metrics) : store;
    }

    /** The application stops: what was registered for it alone (gauges reading its state) is removed. */
    public void close() {}

    /** Metrics recorded by other meters (or none), plus the span event: OpenTelemetry traces but does not meter. */
    private static final class Traced extends Meters {
        private final Meters metrics;

        Traced(Meters metrics) {
            this.metrics = metrics;
        }

        @Override
        public EngineMetrics engine(String manager, String store) {
            return SpanEvents.around(metrics.engine(manager, store), managerName(manager), store);
        }

        @Override
        boolean records() {
            return metrics.records();
        }

        @Override
        public void close() {
            metrics.close();
        }

        @Override
        public String toString() {
            return metrics + ", OpenTelemetry span events";
        }
    }
}
