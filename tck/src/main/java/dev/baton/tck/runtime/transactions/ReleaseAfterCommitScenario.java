package dev.baton.tck.runtime.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.runtime.Concurrently;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scenario both release-after-commit tests share: {@value #CALLERS} concurrent increments of one
 * row answer exactly 1..{@value #CALLERS} and leave {@value #CALLERS}. A subclass supplies the
 * deployment ({@link #deployment(String, Class)} with its {@link IncrementingCounter}).
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
@Tag(RuntimeTck.TAG_TRANSACTIONS)
abstract class ReleaseAfterCommitScenario {

    static final int CALLERS = 6;

    @ArquillianResource
    URL base;

    static WebArchive deployment(String name, Class<? extends IncrementingCounter> counter) {
        return RuntimeTck.scenario(name)
                .addClasses(Counter.class, Counters.class, IncrementingCounter.class, CounterResource.class, counter)
                .addAsResource(IncrementingCounter.class.getPackage(), "persistence.xml", "META-INF/persistence.xml");
    }

    /** The check of the rule; each subclass declares it as a test of its own, with its own rule id. */
    void concurrentIncrementsOfOneRowLoseNoUpdate() {
        List<Http.Response> responses = Concurrently.send(CALLERS, () -> Http.post(base, "api/counter/shared"));

        assertThat(responses)
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        assertThat(responses)
                .extracting(Http.Response::body)
                .as("each holder read the previous holder's committed value")
                .containsExactlyInAnyOrder("1", "2", "3", "4", "5", "6");
        assertThat(Http.getBody(base, "api/counter/shared")).isEqualTo(Integer.toString(CALLERS));
    }
}
