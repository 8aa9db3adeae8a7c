package dev.baton.docs.samples.operations;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A caller of a locked JAX-RS method that retries a 409 after the time the server names. */
public final class RetryOnConflict {

    private final HttpClient client = HttpClient.newHttpClient();

    // tag::retry[]
    /** Sends the request; on 409 waits Retry-After (else a growing pause) and tries again, at most 3 times. */
    public HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        Duration pause = Duration.ofMillis(200);
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 409 || attempt == 3) {
                return response; // done, or still busy: the problem body says which key and for how long
            }
            Duration wait = response.headers()
                    .firstValue("Retry-After")
                    .map(seconds -> Duration.ofSeconds(Long.parseLong(seconds)))
                    .orElse(pause);
            Thread.sleep(wait.toMillis());
            pause = pause.multipliedBy(2);
        }
    }
    // end::retry[]
}
