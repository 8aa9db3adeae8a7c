package dev.baton.tck.runtime.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Concurrently;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import dev.baton.tck.runtime.conflict.GateResource;
import dev.baton.tck.runtime.conflict.Gates;
import dev.baton.tck.runtime.support.HolderProbe;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Permits, read/write locks and a JAX-RS method that waits for its lock without its request thread, on the
 * runtime's default store, in one deployment (each rule has keys of its own). The application counts who is
 * inside; the gate of {@code conflict.GateResource} holds a key from another request for as long as the test
 * wants.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class SharedAndAsyncTest {

    /** Callers of the method with three permits: three rounds' worth. */
    static final int EXPORTERS = 3 * ExportResource.PERMITS;

    static final int READERS = 8;
    /** Fewer writers than half the readers: some two readers come between the same two writers, whatever the order. */
    static final int WRITERS = 3;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-shared")
                .addClasses(
                        ExportResource.class,
                        ReadWriteProbe.class,
                        Prices.class,
                        PricesResource.class,
                        Arrivals.class,
                        ArrivalsResource.class,
                        AsyncResource.class,
                        GateResource.class);
    }

    @ArquillianResource
    URL base;

    /** The holders of {@code gate:<id>}, and the gates the readers of {@code prices:<id>} wait at. */
    private Gates gates() {
        return new Gates(base, "api/gate");
    }

    @Test
    @TckRule(id = "R-4.3-01", spec = "spec-api-shared-limit")
    void aMethodWithThreePermitsNeverHasMoreThanThreeCallersInside() {
        List<Http.Response> responses = Concurrently.send(EXPORTERS, () -> Http.post(base, "api/export"));

        assertThat(responses)
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        String stats = Http.getBody(base, "api/probe?" + Http.query("name", "export"));
        assertThat(stats).startsWith("calls=" + EXPORTERS + ",");
        assertThat(most(stats))
                .as(
                        "the most callers inside at once (%s): never more than the permits, and more than one, or the"
                                + " permits were a plain lock",
                        stats)
                .isBetween(2, ExportResource.PERMITS);
    }

    @Test
    @TckRule(id = "R-4.3-02", spec = "spec-api-shared-limit")
    void readersOfOneKeyRunTogetherAndAWriterAlone() {
        List<Http.Response> responses = Concurrently.send(
                READERS + WRITERS,
                caller -> Http.post(base, (caller < READERS ? "api/prices/read/" : "api/prices/write/") + "mixed"));

        assertThat(responses)
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        String stats = Http.getBody(base, "api/prices/mixed");
        assertThat(stats)
                .as("never anyone beside a writer")
                .startsWith("readers=" + READERS + ",writers=" + WRITERS + ",")
                .contains(",besideWriter=0,");
        assertThat(mostReaders(stats))
                .as("the most readers inside at once (%s): more than one, or reading was a plain lock", stats)
                .isGreaterThan(1);
    }

    @Test
    @TckRule(id = "R-4.3-03", spec = "spec-api-shared-writer")
    void aWaitingWriterKeepsTheReadersThatComeAfterItOut() {
        CompletableFuture<Http.Response> firstReader = post("api/prices/read-until-opened/turn");
        await().atMost(bound()).until(() -> firstReader.isDone() || gates().entered("reading-turn"));
        assertThat(firstReader).as("the first reader must still be inside").isNotDone();

        CompletableFuture<Http.Response> writer = post("api/prices/write/turn");
        awaitArrival("write-turn");
        assertStillWaiting(writer, "a writer beside a reader");

        CompletableFuture<Http.Response> laterReader = post("api/prices/read/turn");
        awaitArrival("read-turn");
        assertStillWaiting(laterReader, "a reader that came after a waiting writer, let in before it");

        gates().open("reading-turn");
        assertThat(List.of(firstReader.join(), writer.join(), laterReader.join()))
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));
        assertThat(Http.getBody(base, "api/prices/turn"))
                .as("never anyone beside a writer; who came in, in order")
                .endsWith(",besideWriter=0,order=read,write,read");
    }

    @Test
    @TckRule(id = "R-4.4-01", spec = "spec-api-async-no-thread")
    void anAsynchronousJaxrsMethodWaitsForABusyKeyWithoutItsRequestThread() {
        assertThat(Http.post(base, "api/async/wait/free"))
                .as("a free key: the method runs at once, on the request thread")
                .extracting(Http.Response::status, Http.Response::body)
                .containsExactly(200, "on the request thread");

        assertAnsweredOnAnotherThreadOnceTheKeyIsFree("wait", "busy");
    }

    @Test
    @TckRule(id = "R-4.4-03", spec = "spec-api-async-no-thread")
    void anAsynchronousJaxrsResponseChainedToLocksAcquireAsyncWaitsWithoutItsRequestThread() {
        assertAnsweredOnAnotherThreadOnceTheKeyIsFree("acquire", "programmatic");
    }

    /**
     * {@code POST api/async/<method>/<id>} while another request holds {@code gate:<id>}: not answered until the
     * holder is done, then answered 200 from another thread than the request's.
     */
    private void assertAnsweredOnAnotherThreadOnceTheKeyIsFree(String method, String id) {
        CompletableFuture<Http.Response> holder = gates().hold(id);
        int arrived = arrivals("async");
        CompletableFuture<Http.Response> waiter = post("api/async/" + method + "/" + id);
        await().atMost(bound()).until(() -> arrivals("async") > arrived);
        assertStillWaiting(waiter, "an answer while another request holds the key");

        gates().release(id, holder);
        Http.Response answer = waiter.join();
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
                .as("answered on the thread that got the lock, not on the request thread, which waited")
                .isEqualTo("on another thread");
    }

    @Test
    @TckRule(id = "R-4.4-02", spec = "spec-api-async-no-thread")
    void anAsynchronousJaxrsMethodThatTimesOutGets409() {
        CompletableFuture<Http.Response> holder = gates().hold("timeout");

        Http.Response conflict = Http.post(base, "api/async/give-up/timeout");

        Gates.assertLockTimeoutProblem(conflict);
        assertThat(conflict.body())
                .as("the stage completed with LockTimeoutException, answered as a synchronous method's")
                .contains("\"key\":\"gate:timeout\"")
                .contains("\"timeoutMillis\":" + AsyncResource.GIVE_UP_MILLIS + ",");

        gates().release("timeout", holder);
        assertThat(Http.post(base, "api/async/wait/timeout"))
                .as("the key is free once its holder is done")
                .extracting(Http.Response::status, Http.Response::body)
                .containsExactly(200, "on the request thread");
    }

    private CompletableFuture<Http.Response> post(String path) {
        return CompletableFuture.supplyAsync(() -> Http.post(base, path));
    }

    private int arrivals(String name) {
        return Integer.parseInt(Http.getBody(base, "api/arrivals?" + Http.query("name", name)));
    }

    private void awaitArrival(String name) {
        await().atMost(bound()).until(() -> arrivals(name) > 0);
    }

    /**
     * The request arrived and asked for its lock: it must not be answered for a while, which a runtime that let it
     * in would have done.
     */
    private static void assertStillWaiting(CompletableFuture<Http.Response> request, String wrong) {
        await(wrong)
                .during(RuntimeTck.scaled(Duration.ofMillis(400)))
                .atMost(RuntimeTck.scaled(Duration.ofSeconds(5)))
                .until(() -> !request.isDone());
    }

    private static Duration bound() {
        return RuntimeTck.scaled(Duration.ofSeconds(30));
    }

    private static final Pattern MOST = Pattern.compile("\\bmost=(\\d+)");
    private static final Pattern MOST_READERS = Pattern.compile("\\bmostReaders=(\\d+)");

    /** The {@code most} of {@link HolderProbe#stats}. */
    private static int most(String stats) {
        return number(MOST, stats);
    }

    /** The {@code mostReaders} of {@link ReadWriteProbe#stats}. */
    private static int mostReaders(String stats) {
        return number(MOST_READERS, stats);
    }

    private static int number(Pattern pattern, String stats) {
        Matcher m = pattern.matcher(stats);
        assertThat(m.find()).as("%s in %s", pattern, stats).isTrue();
        return Integer.parseInt(m.group(1));
    }
}
