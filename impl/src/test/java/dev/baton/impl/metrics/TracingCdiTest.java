package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
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
    private final SdkTracerProvider tracing = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();

    @Inject
    Locks locks;

    @AfterEach
    void close() {
        tracing.close();
    }

    @Test
    void anAcquisitionUnderARecordingSpanAddsAnEventWithKeyAndToken() {
        Span request = tracing.get("test").spanBuilder("GET /orders/7").startSpan();
        long token;
        try (Scope scope = request.makeCurrent(); Lock lock = locks.acquire("order:7")) {
            token = lock.fencingToken();
        } finally {
            request.end();
        }

        assertThat(exporter.getFinishedSpanItems()).singleElement().extracting(SpanData::getEvents, InstanceOfAssertFactories.list(EventData.class))
                .singleElement().satisfies(data -> {
                    assertThat(data.getName()).isEqualTo("baton.lock.acquired");
                    assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.lock.key"))).isEqualTo("order:7");
                    assertThat(data.getAttributes().get(AttributeKey.longKey("baton.lock.fencing_token"))).isEqualTo(token);
                    assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.manager"))).isEqualTo("default");
                    assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.store"))).isEqualTo("memory");
                });
    }

    @Test
    void withoutASpanNothingIsRecordedAndNothingFails() {
        Span unsampled = Span.getInvalid();
        try (Scope scope = unsampled.makeCurrent(); Lock lock = locks.acquire("no-span")) {
            assertThat(lock.isHeld()).isTrue();
        }
        try (Lock lock = locks.acquire("no-context")) {
            assertThat(lock.isHeld()).isTrue();
        }
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }
}
