package dev.baton.tck.runtime.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.KeyFormat;
import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With {@code baton.http.conflict.key=hash}, the 409 problem names the key's hash ({@code sha256:} and 16 hex
 * digits of the SHA-256 of its UTF-8 bytes, as {@link KeyFormat#HASH} writes it), in {@code key} and in
 * {@code detail}, and the key itself nowhere; {@code Retry-After} is still sent.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class HashedConflictKeyTest {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-conflict-hashed").addClasses(GateResource.class),
                "baton.ttl",
                "20s",
                "baton.http.conflict.key",
                "hash");
    }

    @ArquillianResource
    URL base;

    @Test
    @TckRule(id = "R-4.2-06", spec = "spec-api-conflict-key")
    void theBodyNamesTheKeysHashAndNotTheKey() {
        Gates gates = new Gates(base, "api/gate");
        CompletableFuture<Http.Response> holder = gates.hold("h1");

        Http.Response conflict = Http.post(base, "api/gate/try/h1");

        Gates.assertLockTimeoutProblem(conflict);
        String hash = KeyFormat.HASH.format("gate:h1");
        assertThat(conflict.body())
                .contains("\"key\":\"" + hash + "\"")
                .contains("\"detail\":\"Lock '" + hash + "' is held by another owner (not waiting)\"")
                .doesNotContain("gate:h1");
        assertThat(conflict.header("Retry-After"))
                .as("Retry-After in every form")
                .isPresent();

        gates.release("h1", holder);
    }
}
