package dev.baton.tck.runtime.loss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A lock lost while its {@code @Synchronized} method runs is signalled to the holder in every way the
 * API promises, and with {@code baton.interrupt-on-loss=true} (read from
 * {@code microprofile-config.properties}) the method's thread is interrupted.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class LostLockSignalTest {

    private static final Pattern TOKEN = Pattern.compile("token=(\\d+)");

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-lost-lock-signal")
                        .addClasses(DisowningStore.class, LosingWorker.class, LossResource.class),
                "baton.renew-interval",
                "100ms",
                "baton.interrupt-on-loss",
                "true");
    }

    @Test
    @TckRule(id = "R-5.1-01", spec = "spec-runtime-loss-signal")
    void theHolderOfALostLockIsToldAndInterrupted() {
        Http.Response work = Http.post(base, "api/loss/job");

        assertThat(work.status()).as(work.body()).isEqualTo(200);
        assertThat(work.body())
                .startsWith(
                        "interrupted=true,held=false,whenLost=LockLostException,checkHeld=LockLostException,token=");
        Matcher token = TOKEN.matcher(work.body());
        assertThat(token.find()).isTrue();
        // the event is fired by the thread that saw the loss, maybe just after the work was interrupted
        String expected = "signal:job#" + token.group(1);
        String events = "";
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!events.equals(expected) && System.nanoTime() < deadline) {
            events = Http.getBody(base, "api/loss/events");
            pause();
        }
        assertThat(events).as("LockLost events observed").isEqualTo(expected);
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
