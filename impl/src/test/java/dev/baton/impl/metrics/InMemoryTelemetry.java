package dev.baton.impl.metrics;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The application's {@code OpenTelemetry} bean, as MicroProfile Telemetry provides one, metering into an
 * in-memory reader (also a bean, one per container, for the test to read).
 */
public class InMemoryTelemetry {

    @Produces
    @Singleton
    InMemoryMetricReader reader() {
        return InMemoryMetricReader.create();
    }

    @Produces
    @Singleton
    OpenTelemetry openTelemetry(InMemoryMetricReader reader) {
        return OpenTelemetrySdk.builder()
                .setMeterProvider(
                        SdkMeterProvider.builder().registerMetricReader(reader).build())
                .build();
    }
}
