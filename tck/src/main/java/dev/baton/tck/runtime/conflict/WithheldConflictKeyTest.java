package dev.baton.tck.runtime.conflict;

import static org.assertj.core.api.Assertions.assertThat;

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
 * With {@code baton.http.conflict.key=none}, the 409 problem has no {@code key} member and its {@code detail} does
 * not name the key (nor does any other member); {@code Retry-After} is still sent.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class WithheldConflictKeyTest {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-conflict-withheld").addClasses(GateResource.class),
                "baton.ttl",
                "20s",
                "baton.http.conflict.key",
                "none");
    }

    @ArquillianResource
    URL base;

    @Test
    @TckRule(id = "R-4.2-07", spec = "spec-api-conflict-key")
    void theBodySaysNothingOfTheKey() {
        Gates gates = new Gates(base, "api/gate");
        CompletableFuture<Http.Response> holder = gates.hold("n1");

        Http.Response conflict = Http.post(base, "api/gate/try/n1");

        Gates.assertLockTimeoutProblem(conflict);
        assertThat(conflict.body())
                .doesNotContain("\"key\":")
                .doesNotContain("gate:n1")
                .contains("\"detail\":\"The lock is held by another owner (not waiting)\"");
        assertThat(conflict.header("Retry-After"))
                .as("Retry-After in every form")
                .isPresent();

        gates.release("n1", holder);
    }
}
