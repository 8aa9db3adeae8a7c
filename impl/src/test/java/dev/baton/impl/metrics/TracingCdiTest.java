package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockConfigurationException;
import dev.baton.Locks;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.testing.BatonTest;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The span event through CDI where OpenTelemetry traces but meters nothing (no {@code OpenTelemetry} bean, no
 * global instance: the server's tracing puts the spans on the threads, as MicroProfile Telemetry does, and
 * Baton needs no instance to add to them): an acquisition under a recording span adds
 * {@code baton.lock.acquired} with key and fencing token; one without a span records nothing and fails nothing.
 */
@BatonTest
class TracingCdiTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider tracing = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
            .build();

    @Inject
    Locks locks;

    @Inject
    BeanManager beans;

    @AfterEach
    void close() {
        tracing.close();
    }

    @Test
    void anAcquisitionUnderARecordingSpanAddsAnEventWithKeyAndToken() {
        Span request = tracing.get("test").spanBuilder("GET /orders/7").startSpan();
        long token;
        try (Scope scope = request.makeCurrent();
                Lock lock = locks.acquire("order:7")) {
            token = lock.fencingToken();
        } finally {
            request.end();
        }

        assertThat(exporter.getFinishedSpanItems())
                .singleElement()
                .extracting(SpanData::getEvents, InstanceOfAssertFactories.list(EventData.class))
                .singleElement()
                .satisfies(data -> {
                    assertThat(data.getName()).isEqualTo("baton.lock.acquired");
                    assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.lock.key")))
                            .isEqualTo("order:7");
                    assertThat(data.getAttributes().get(AttributeKey.longKey("baton.lock.fencing_token")))
                            .isEqualTo(token);
                    assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.manager")))
                            .isEqualTo("default");
                    assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.store")))
                            .isEqualTo("memory");
                });
    }

    @Test
    void withoutASpanNothingIsRecordedAndNothingFails() {
        Span unsampled = Span.getInvalid();
        try (Scope scope = unsampled.makeCurrent();
                Lock lock = locks.acquire("no-span")) {
            assertThat(lock.isHeld()).isTrue();
        }
        try (Lock lock = locks.acquire("no-context")) {
            assertThat(lock.isHeld()).isTrue();
        }
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void aNamedApiTheApplicationDoesNotHaveFailsNamingTheKey() {
        assertThatThrownBy(() -> Meters.detect(true, BatonConfig.MetricsApi.MICROPROFILE_METRICS, beans))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining(
                        "baton.metrics.api=microprofile-metrics, but the application has no MicroProfile Metrics 5 API with a MetricRegistry bean");
        assertThatThrownBy(() -> Meters.detect(true, BatonConfig.MetricsApi.OPENTELEMETRY, beans))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining(
                        "baton.metrics.api=opentelemetry, but the application has no OpenTelemetry API with an OpenTelemetry bean or a GlobalOpenTelemetry set");
        assertThat(Meters.detect(true, BatonConfig.MetricsApi.AUTO, beans))
                .as("automatically: span events only")
                .hasToString("none, OpenTelemetry span events");
    }
}
