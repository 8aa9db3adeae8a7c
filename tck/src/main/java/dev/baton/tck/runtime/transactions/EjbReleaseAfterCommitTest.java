package dev.baton.tck.runtime.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.runtime.Concurrently;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Concurrent container-managed EJB increments of one row under {@code @Synchronized} lose no
 * update: the lock is released after the container commits.
 */
@ExtendWith(ArquillianExtension.class)
@Tag(RuntimeTck.TAG_EJB)
@Tag(RuntimeTck.TAG_TRANSACTIONS)
class EjbReleaseAfterCommitTest {

    static final int CALLERS = 6;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-release-after-commit-ejb")
                .addClasses(Counter.class, Counters.class, EjbCounter.class, EjbCounterResource.class)
                .addAsResource(EjbReleaseAfterCommitTest.class.getPackage(), "persistence.xml", "META-INF/persistence.xml");
    }

    @ArquillianResource
    URL base;

    @Test
    void concurrentIncrementsOfOneRowLoseNoUpdate() {
        List<Http.Response> responses = Concurrently.send(CALLERS, () -> Http.post(base, "api/counter/ejb/shared"));

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        assertThat(responses).extracting(Http.Response::body)
                .as("each holder read the previous holder's committed value")
                .containsExactlyInAnyOrder("1", "2", "3", "4", "5", "6");
        assertThat(Http.get(base, "api/counter/ejb/shared").body()).isEqualTo(Integer.toString(CALLERS));
    }
}
