package dev.baton.tck.runtime.conflict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The test's side of a gate resource of a deployment ({@link GateResource} at {@code api/gate}, {@link
 * EjbGateResource} at {@code api/ejb-gate}): a request that takes a key and keeps it until the test opens its gate,
 * and the check of the 409 problem that a request which did not get a key is answered.
 */
public final class Gates {

    private final URL base;
    private final String resource;

    /**
     * @param base the deployment's URL
     * @param resource the gate resource's path under it, such as {@code api/gate}
     */
    public Gates(URL base, String resource) {
        this.base = base;
        this.resource = resource;
    }

    /**
     * Sends {@code POST <resource>/hold/<id>} from another thread and returns once the request is inside its method,
     * holding its key until {@link #release}.
     */
    public CompletableFuture<Http.Response> hold(String id) {
        CompletableFuture<Http.Response> holder =
                CompletableFuture.supplyAsync(() -> Http.post(base, resource + "/hold/" + id));
        await().atMost(RuntimeTck.scaled(Duration.ofSeconds(30))).until(() -> holder.isDone() || entered(id));
        assertThat(holder).as("the holder must still be inside").isNotDone();
        return holder;
    }

    /** Opens the gate {@code id} and checks that its holder was answered {@code released}. */
    public void release(String id, CompletableFuture<Http.Response> holder) {
        open(id);
        Http.Response released = holder.join();
        assertThat(released.status()).as(released.body()).isEqualTo(200);
        assertThat(released.body()).isEqualTo("released");
    }

    /** Whether a caller waits at the gate {@code name}. */
    public boolean entered(String name) {
        return "true".equals(Http.getBody(base, resource + "/entered/" + name));
    }

    /** Opens the gate {@code name}. */
    public void open(String name) {
        Http.post(base, resource + "/open/" + name);
    }

    /** A 409 that is an RFC 9457 problem of a lock timeout: its media type, and the members a client reads. */
    public static void assertLockTimeoutProblem(Http.Response conflict) {
        assertThat(conflict.status()).as(conflict.body()).isEqualTo(409);
        assertThat(conflict.header("Content-Type"))
                .as("the 409's media type (headers %s)", conflict.headers())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(conflict.body())
                .as("an RFC 9457 problem")
                .contains("\"status\":409")
                .contains("\"type\":\"urn:dev.baton:problem:lock-timeout\"")
                .contains("\"title\":");
    }
}
