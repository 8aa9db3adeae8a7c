package dev.baton.tck.runtime.exclusion;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Synchronized} on an application-scoped CDI bean method excludes concurrent requests for
 * one key (counted inside the method by the application).
 */
@ExtendWith(ArquillianExtension.class)
class CdiMutualExclusionTest {

    static final int CALLERS = 6;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-exclusion-cdi")
                .addClasses(CdiWorker.class, CdiWorkerResource.class);
    }

    @ArquillianResource
    URL base;

    @Test
    void concurrentRequestsForOneKeyNeverOverlap() {
        List<Http.Response> responses = Concurrently.send(CALLERS, () -> Http.post(base, "api/work/cdi/one"));

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        assertThat(Http.get(base, "api/probe/cdi:one").body()).isEqualTo("calls=" + CALLERS + ",most=1");
    }
}
