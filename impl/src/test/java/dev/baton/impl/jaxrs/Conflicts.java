package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * A real conflict in a Weld deployment, answered by the mapper as the JAX-RS runtime would call it: the key is held
 * here while another thread waits 50 ms for it.
 */
final class Conflicts {

    /** A key built from an e-mail address, as {@code customer:{email}} builds it. */
    static final String KEY = "customer:ann@example.com";

    private Conflicts() {}

    /** The 409 answer and its body, parsed. */
    record Answer(Response response, JsonObject body, LockTimeoutException exception) {}

    static Answer conflict(Locks locks) {
        LockTimeoutException timeout;
        try (Lock held = locks.acquire(KEY)) {
            CompletableFuture<Lock> other = CompletableFuture.supplyAsync(
                    () -> locks.acquire(KEY, LockOptions.defaults().withTimeout(Duration.ofMillis(50))));
            try {
                other.orTimeout(10, TimeUnit.SECONDS).join().close();
                throw new AssertionError("the key was held: the other thread must not get it");
            } catch (CompletionException e) {
                assertThat(e.getCause()).isInstanceOf(LockTimeoutException.class);
                timeout = (LockTimeoutException) e.getCause();
            }
        }
        Response response = new LockTimeoutExceptionMapper().toResponse(timeout);
        assertThat(response.getStatus()).isEqualTo(409);
        assertThat(response.getHeaderString("Retry-After"))
                .as("Retry-After in every form: the memory store reports the holder's lease")
                .isNotNull();
        try (var reader = Json.createReader(new StringReader((String) response.getEntity()))) {
            return new Answer(response, reader.readObject(), timeout);
        }
    }
}
