package dev.baton.impl.testing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The {@code Meter} bean a MicroProfile Telemetry server provides. SmallRye Fault Tolerance integrates with
 * the metrics library it finds on the class path, and the OpenTelemetry API is on the tests' (Baton's own
 * metrics use it): it then asks for this bean.
 */
public class NoopMeter {

    @Produces
    @Singleton
    Meter meter() {
        return OpenTelemetry.noop().getMeter("io.smallrye.faulttolerance");
    }
}
