package dev.baton.tck.runtime.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Concurrently;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application's first lock is taken at startup on a plain thread of its own, in a
 * {@code @Transactional} method, before any request ({@link ApplicationThreadStartup}). Baton must have
 * found the server's JTA support at application start, not on that thread (where {@code java:comp}
 * is usually missing and it would conclude "no JTA" for good): the later concurrent {@code @Transactional}
 * increments of the row still release their lock only after commit and lose no update.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
@Tag(RuntimeTck.TAG_TRANSACTIONS)
class FirstLockOnAnApplicationThreadTest {

    static final int CALLERS = 6;

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-first-lock-on-application-thread")
                .addClasses(
                        Counter.class,
                        Counters.class,
                        IncrementingCounter.class,
                        CounterResource.class,
                        TransactionalCounter.class,
                        ApplicationThreadStartup.class,
                        StartupResource.class)
                .addAsResource(IncrementingCounter.class.getPackage(), "persistence.xml", "META-INF/persistence.xml");
    }

    @Test
    @TckRule(id = "R-5.3-04", spec = "spec-runtime-release-after-commit")
    void requestsAfterAFirstLockOnAnApplicationThreadStillReleaseAfterCommit() throws InterruptedException {
        String startup = startupOutcome();
        assertThat(startup).as("the startup thread's locked increment").startsWith("done 1 ");

        List<Http.Response> responses =
                Concurrently.send(CALLERS, () -> Http.post(base, "api/counter/" + ApplicationThreadStartup.COUNTER));

        assertThat(responses)
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        assertThat(responses)
                .extracting(Http.Response::body)
                .as("each holder read the previous holder's committed value (startup: %s)", startup)
                .containsExactlyInAnyOrder("2", "3", "4", "5", "6", "7");
        assertThat(Http.getBody(base, "api/counter/" + ApplicationThreadStartup.COUNTER))
                .isEqualTo(Integer.toString(CALLERS + 1));
    }

    /** Polls until the startup thread is done, within the scaled bound. */
    private String startupOutcome() throws InterruptedException {
        long deadline =
                System.nanoTime() + RuntimeTck.scaled(Duration.ofSeconds(60)).toNanos();
        String outcome = Http.getBody(base, "api/startup");
        while (outcome.equals("pending") && System.nanoTime() < deadline) {
            Thread.sleep(100);
            outcome = Http.getBody(base, "api/startup");
        }
        return outcome;
    }
}
