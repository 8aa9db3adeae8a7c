package dev.baton.tck.runtime.exclusion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.runtime.Concurrently;
import dev.baton.tck.runtime.Http;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scenario the three exclusion tests share: {@value #CALLERS} concurrent {@code POST /api/work/one}
 * are all served, and the application never counted two of them inside the method at once. A
 * subclass supplies the deployment (which kind of {@code @Synchronized} method serves the path).
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
abstract class MutualExclusionScenario {

    static final int CALLERS = 6;

    @ArquillianResource
    URL base;

    /** The lock key prefix and probe section of the method under test ({@code cdi}, {@code ejb}, {@code jaxrs}). */
    abstract String kind();

    /** The check of the rule; each subclass declares it as a test of its own, with its own rule id. */
    void concurrentRequestsForOneKeyNeverOverlap() {
        List<Http.Response> responses = Concurrently.send(CALLERS, () -> Http.post(base, "api/work/one"));

        assertThat(responses)
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        assertThat(Http.getBody(base, "api/probe?" + Http.query("name", kind() + ":one")))
                .isEqualTo("calls=" + CALLERS + ",most=1");
    }
}
