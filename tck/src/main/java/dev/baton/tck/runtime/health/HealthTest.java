package dev.baton.tck.runtime.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MicroProfile Health on the server: Baton's readiness check {@code baton-stores} is UP while the lock
 * store answers, turns DOWN (the server's {@code /health/ready} answers 503) when the store cannot be
 * reached — the application's {@link SwitchableStore} is switched off — and UP again when it answers again.
 */
@Tag(RuntimeTck.TAG_HEALTH)
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class HealthTest {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-health").addClasses(SwitchableStore.class, StoreSwitchResource.class);
    }

    @ArquillianResource
    URL base;

    @Test
    @TckRule(id = "R-8.2-02", spec = "spec-runtime-health")
    void readinessFollowsTheStore() {
        Http.Response up = awaitReadiness("UP with the store answering", r -> r.status() == 200);
        assertThat(up.body())
                .as("the readiness answer")
                .contains("baton-stores")
                .contains("UP");

        assertThat(Http.post(base, "api/store/down").status()).isEqualTo(200);
        Http.Response down = awaitReadiness("DOWN with the store unreachable", r -> r.status() == 503);
        assertThat(down.body())
                .as("the readiness answer")
                .contains("baton-stores")
                .contains("DOWN");

        assertThat(Http.post(base, "api/store/up").status()).isEqualTo(200);
        Http.Response again = awaitReadiness("UP again once the store answers", r -> r.status() == 200);
        assertThat(again.body())
                .as("the readiness answer")
                .contains("baton-stores")
                .contains("UP");
    }

    /**
     * {@code GET} the server's readiness ({@link RuntimeTck#healthUrl}, by default {@code /health/ready} of the
     * server, not of the application) until {@code done}, at most 30 s (scaled).
     */
    private Http.Response awaitReadiness(String what, Predicate<Http.Response> done) {
        URI ready = RuntimeTck.healthUrl(base);
        long deadline =
                System.nanoTime() + RuntimeTck.scaled(Duration.ofSeconds(30)).toNanos();
        Http.Response response = Http.get(ready);
        while (!done.test(response) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for readiness " + what, e);
            }
            response = Http.get(ready);
        }
        assertThat(done.test(response))
                .as("readiness %s: %s %s", what, response.status(), response.body())
                .isTrue();
        return response;
    }
}
