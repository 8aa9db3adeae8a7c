package dev.baton.tck.runtime.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import dev.baton.tck.runtime.loss.DisowningStore;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A lock taken with {@code Locks.callWithLock} inside a {@code @Transactional} method and lost before
 * the transaction commits makes the commit fail, as for {@code @Synchronized}: what the holder wrote is
 * rolled back.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
@Tag(RuntimeTck.TAG_TRANSACTIONS)
class ProgrammaticLostLockRollbackTest {

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-lost-lock-rollback-api")
                        .addClasses(
                                Counter.class,
                                Counters.class,
                                DisowningStore.class,
                                LosingCounter.class,
                                LostLockResource.class)
                        .addAsResource(Counter.class.getPackage(), "persistence.xml", "META-INF/persistence.xml"),
                "baton.renew-interval",
                "100ms");
    }

    @Test
    @TckRule(id = "R-5.1-03", spec = "spec-runtime-loss-rollback")
    void aLockLostBeforeTheCommitRollsTheTransactionBack() {
        Http.Response write = Http.post(base, "api/lost/programmatic/doomed");
        assertThat(write.status()).as(write.body()).isEqualTo(200);
        assertThat(write.body()).as("the commit of a holder that lost its lock").startsWith("rolled back");
        assertThat(Http.getBody(base, "api/lost/doomed"))
                .as("nothing the holder wrote is kept")
                .isEqualTo("0");
        assertThat(Http.getBody(base, "api/lost/events/count"))
                .as("LockLost events observed")
                .isEqualTo("1");
    }
}
