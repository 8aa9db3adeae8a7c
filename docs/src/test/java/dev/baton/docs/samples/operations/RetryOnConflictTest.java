package dev.baton.docs.samples.operations;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The retry sample against a server that answers as Baton's 409 mapper does, then 200. */
class RetryOnConflictTest {

    @Test
    void waitsRetryAfterAndTriesAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/orders/42/shipment", exchange -> {
            boolean busy = calls.incrementAndGet() == 1;
            byte[] body = (busy ? "{\"status\":409}" : "{\"shipped\":true}").getBytes(StandardCharsets.UTF_8);
            if (busy) {
                exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
                exchange.getResponseHeaders().add("Retry-After", "1");
            }
            exchange.sendResponseHeaders(busy ? 409 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/orders/42/shipment");
            long started = System.nanoTime();
            HttpResponse<String> response = new RetryOnConflict()
                    .send(HttpRequest.newBuilder(uri)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build());
            long tookMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(calls).hasValue(2);
            assertThat(tookMillis).as("waited the Retry-After").isGreaterThanOrEqualTo(1_000);
        } finally {
            server.stop(0);
        }
    }
}
