package dev.baton.tck.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A small HTTP client for the scenarios: plain {@code java.net.http}, no JAX-RS client needed. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private Http() {}

    /**
     * A response: status code, body text and headers (names as the server sent them).
     *
     * @param status the status code
     * @param body the body
     * @param headers the headers
     */
    public record Response(int status, String body, Map<String, List<String>> headers) {

        /** A response without headers. */
        public Response(int status, String body) {
            this(status, body, Map.of());
        }

        /** @return the first value of a header, its name compared without case */
        public Optional<String> header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream())
                    .findFirst();
        }
    }

    /** GET an absolute URI (e.g. an endpoint of the server, not of the deployment). */
    public static Response get(URI uri) {
        return send(HttpRequest.newBuilder(uri).GET());
    }

    /** GET {@code path} relative to the deployment's {@code base} URL. */
    public static Response get(URL base, String path) {
        return send(HttpRequest.newBuilder(resolve(base, path)).GET());
    }

    /**
     * GET {@code path} and its body, failing unless the answer is 200: a server error (a 503 of the server's
     * own) is reported as what it is, never read as the application's answer.
     */
    public static String getBody(URL base, String path) {
        Response response = get(base, path);
        if (response.status() != 200) {
            throw new AssertionError(
                    "GET " + path + " answered " + response.status() + " (expected 200): " + response.body());
        }
        return response.body();
    }

    /**
     * {@code name=value} for a query string, the value URL-encoded: keys ({@code cdi:one}) go into query
     * parameters, not paths, which some servers' security layers refuse when they hold a {@code :}.
     */
    public static String query(String name, String value) {
        return name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** POST an empty body to {@code path} relative to the deployment's {@code base} URL. */
    public static Response post(URL base, String path) {
        return send(HttpRequest.newBuilder(resolve(base, path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    static URI resolve(URL base, String path) {
        String root = base.toExternalForm();
        if (!root.endsWith("/")) {
            root += "/";
        }
        return URI.create(root).resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    private static Response send(HttpRequest.Builder request) {
        HttpRequest built =
                request.timeout(RuntimeTck.scaled(Duration.ofSeconds(60))).build();
        try {
            HttpResponse<String> response = CLIENT.send(built, HttpResponse.BodyHandlers.ofString());
            return new Response(
                    response.statusCode(), response.body(), response.headers().map());
        } catch (IOException e) {
            throw new UncheckedIOException(built.method() + " " + built.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(built.method() + " " + built.uri() + " was interrupted", e);
        }
    }
}
