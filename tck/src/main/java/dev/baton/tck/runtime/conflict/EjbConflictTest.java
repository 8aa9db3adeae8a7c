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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lock is a stateless EJB's, the caller a JAX-RS resource: while one request holds {@code ejb-gate:<id>},
 * the bean's {@code LockTimeoutException} reaches the resource as it is, not wrapped by the EJB container, so
 * the request is answered 409 with the problem body as if the resource method were locked; the bean keeps
 * answering, and a stateful bean is not discarded; a caller that catches the exception around the call finds its
 * transaction marked for rollback.
 */
@Tag(RuntimeTck.TAG_EJB)
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class EjbConflictTest {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-conflict-ejb")
                        .addClasses(EjbGate.class, EjbGateSession.class, EjbGateResource.class),
                "baton.ttl",
                ConflictTest.HOLDER_TTL_SECONDS + "s");
    }

    @ArquillianResource
    URL base;

    private Gates gates() {
        return new Gates(base, "api/ejb-gate");
    }

    @Test
    @TckRule(id = "R-4.2-03", spec = "spec-runtime-ejb-application-exception")
    void aLockTimeoutInAnEjbReachesTheJaxrsCallerAs409AndTheBeanStaysUsable() {
        CompletableFuture<Http.Response> holder = gates().hold("e1");

        Http.Response notWaiting = Http.post(base, "api/ejb-gate/try/e1");
        assertThat(notWaiting.status())
                .as("await = false on the bean, the key held: %s", notWaiting.body())
                .isEqualTo(409);
        Gates.assertLockTimeoutProblem(notWaiting);
        assertThat(notWaiting.body()).contains("ejb-gate:e1").contains("\"timeoutMillis\":0,");

        Http.Response waiting = Http.post(base, "api/ejb-gate/wait/e1");
        assertThat(waiting.status())
                .as("a 300 ms timeout on the bean, the key held: %s", waiting.body())
                .isEqualTo(409);
        Gates.assertLockTimeoutProblem(waiting);
        assertThat(waiting.body()).contains("ejb-gate:e1").contains("\"timeoutMillis\":300,");

        Http.Response stateful = Http.post(base, "api/ejb-gate/try-stateful/e1");
        assertThat(stateful.status())
                .as("a stateful bean, called again after its 409: not discarded by the container: %s", stateful.body())
                .isEqualTo(409);
        Gates.assertLockTimeoutProblem(stateful);

        Http.Response again = Http.post(base, "api/ejb-gate/try/e1");
        assertThat(again.status())
                .as("the bean answers alike again: %s", again.body())
                .isEqualTo(409);

        gates().release("e1", holder);
        Http.Response free = Http.post(base, "api/ejb-gate/try/e1");
        assertThat(free.status()).as(free.body()).isEqualTo(200);
        assertThat(free.body()).isEqualTo("got it");
        assertThat(Http.post(base, "api/ejb-gate/wait/e1").status()).isEqualTo(200);
        assertThat(Http.post(base, "api/ejb-gate/try-stateful/e1").status()).isEqualTo(200);
    }

    @Test
    @Tag(RuntimeTck.TAG_TRANSACTIONS)
    @TckRule(id = "R-4.2-04", spec = "spec-runtime-ejb-application-exception")
    void aCallerCatchesTheBeansLockTimeoutExceptionAndItsTransactionIsMarkedForRollback() {
        CompletableFuture<Http.Response> holder = gates().hold("e2");

        Http.Response caught = Http.post(base, "api/ejb-gate/try-in-transaction/e2");
        assertThat(caught.status()).as(caught.body()).isEqualTo(200);
        assertThat(caught.body())
                .as("the caller caught the LockTimeoutException itself, and the bean's call marked its transaction")
                .isEqualTo("caught ejb-gate:e2, marked rollback");

        gates().release("e2", holder);
        Http.Response free = Http.post(base, "api/ejb-gate/try-in-transaction/e2");
        assertThat(free.status()).as(free.body()).isEqualTo(200);
        assertThat(free.body()).as("the key free, the transaction stays active").isEqualTo("got it, status 0");
    }
}
