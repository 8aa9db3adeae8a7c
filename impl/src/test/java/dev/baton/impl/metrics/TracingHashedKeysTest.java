package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
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
 * A span leaves the process as a log line does: with {@code baton.log.keys=hash} the span event's
 * {@code baton.lock.key} is the key's hash ({@link TracingCdiTest} shows it plain by default).
 */
@BatonTest
@WithConfig("baton.log.keys=hash")
class TracingHashedKeysTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider tracing = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
            .build();

    @Inject
    Locks locks;

    @AfterEach
    void close() {
        tracing.close();
    }

    @Test
    void theSpanEventNamesTheKeysHash() {
        Span request = tracing.get("test").spanBuilder("GET /customers/ann").startSpan();
        try (Scope scope = request.makeCurrent();
                Lock lock = locks.acquire("customer:ann@example.com")) {
            assertThat(lock.isHeld()).isTrue();
        } finally {
            request.end();
        }

        assertThat(exporter.getFinishedSpanItems())
                .singleElement()
                .extracting(SpanData::getEvents, InstanceOfAssertFactories.list(EventData.class))
                .singleElement()
                .satisfies(data -> assertThat(data.getAttributes().get(AttributeKey.stringKey("baton.lock.key")))
                        // printf '%s' customer:ann@example.com | sha256sum
                        .isEqualTo("sha256:3d3fa0fad987f9a9"));
    }
}
