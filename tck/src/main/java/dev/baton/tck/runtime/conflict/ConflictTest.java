package dev.baton.tck.runtime.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * While one request holds {@code gate:<id>}: a request that waits gets 409 Conflict after the
 * per-method timeout of {@code microprofile-config.properties} (not the 30 s global one), a request
 * with {@code await = false} gets 409 at once, both bodies name the key (in {@code key} and {@code detail}, as they
 * do unless {@code baton.http.conflict.key} says otherwise: {@link HashedConflictKeyTest},
 * {@link WithheldConflictKeyTest}); both are RFC 9457 problems
 * ({@code application/problem+json}), the second with a {@code Retry-After} from the holder's remaining lease;
 * once the holder is done the lock is free again.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class ConflictTest {

    /** Deliberately long: a request that used it instead of the override would hang the test. */
    static final String GLOBAL_TIMEOUT = "30s";

    static final long METHOD_TIMEOUT_MILLIS = 300;
    /** The holders' lease: a Retry-After is never longer. */
    static final long HOLDER_TTL_SECONDS = 20;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-conflict").addClasses(GateResource.class),
                "baton.timeout",
                GLOBAL_TIMEOUT,
                "baton.ttl",
                HOLDER_TTL_SECONDS + "s",
                GateResource.class.getName() + "/waitFor/Synchronized/timeout",
                METHOD_TIMEOUT_MILLIS + "ms");
    }

    @ArquillianResource
    URL base;

    private Gates gates() {
        return new Gates(base, "api/gate");
    }

    @Test
    @TckRule(id = "R-4.2-01", spec = "spec-api-timeout-conflict")
    void aWaitingRequestGets409AfterItsConfiguredTimeoutAndTheLockIsFreeAfterwards() {
        CompletableFuture<Http.Response> holder = gates().hold("t1");

        long started = System.nanoTime();
        Http.Response waiter = Http.post(base, "api/gate/wait/t1");
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(waiter.status()).as(waiter.body()).isEqualTo(409);
        Gates.assertLockTimeoutProblem(waiter);
        assertThat(waiter.body())
                .contains("gate:t1")
                .as("the body carries the configured timeout and how long the request waited")
                .contains("\"timeoutMillis\":" + METHOD_TIMEOUT_MILLIS + ",")
                .containsPattern("\"waitedMillis\":\\d+,");
        assertThat(waitedMillis(waiter.body()))
                .as("waited at least the timeout, and no longer than the request took")
                .isBetween(METHOD_TIMEOUT_MILLIS, waitedMillis);
        assertThat(waitedMillis)
                .as("waited for the per-method timeout, not baton.timeout=" + GLOBAL_TIMEOUT)
                .isLessThan(RuntimeTck.scaled(Duration.ofSeconds(15)).toMillis());

        gates().release("t1", holder);
        assertThat(Http.post(base, "api/gate/wait/t1").status()).isEqualTo(200);
    }

    @Test
    @TckRule(id = "R-4.2-02", spec = "spec-api-await-false")
    void aRequestThatDoesNotWaitGets409AtOnce() {
        CompletableFuture<Http.Response> holder = gates().hold("t2");

        Http.Response conflict = Http.post(base, "api/gate/try/t2");

        assertThat(conflict.status()).as(conflict.body()).isEqualTo(409);
        Gates.assertLockTimeoutProblem(conflict);
        assertThat(conflict.body())
                .contains("gate:t2")
                .as("a request that does not wait has a timeout of zero")
                .contains("\"timeoutMillis\":0,");
        // the store reported the holder's remaining lease (every store of the suite's deployments does): when to retry
        String retryAfter = conflict.header("Retry-After")
                .orElseThrow(() -> new AssertionError("no Retry-After header on a 409 whose holder's lease is known: "
                        + conflict.headers() + " " + conflict.body()));
        assertThat(Long.parseLong(retryAfter.trim()))
                .as("Retry-After, whole seconds up to the holder's ttl")
                .isBetween(1L, HOLDER_TTL_SECONDS);

        gates().release("t2", holder);
        assertThat(Http.post(base, "api/gate/try/t2").status()).isEqualTo(200);
    }

    @Test
    @TckRule(id = "R-4.2-05", spec = "spec-api-conflict-key")
    void byDefaultTheBodyNamesTheKeyInItsKeyMemberAndItsDetail() {
        CompletableFuture<Http.Response> holder = gates().hold("t3");

        Http.Response conflict = Http.post(base, "api/gate/try/t3");

        Gates.assertLockTimeoutProblem(conflict);
        assertThat(conflict.body())
                .as("without baton.http.conflict.key the body names the key as it is")
                .contains("\"key\":\"gate:t3\"")
                .contains("\"detail\":\"Lock 'gate:t3' is held by another owner (not waiting)\"");
        assertThat(conflict.header("Retry-After")).isPresent();

        gates().release("t3", holder);
    }

    private static final Pattern WAITED = Pattern.compile("\"waitedMillis\":(\\d+)");

    /** The {@code waitedMillis} of a 409 body. */
    private static long waitedMillis(String body) {
        Matcher m = WAITED.matcher(body);
        assertThat(m.find()).as("waitedMillis in %s", body).isTrue();
        return Long.parseLong(m.group(1));
    }
}
