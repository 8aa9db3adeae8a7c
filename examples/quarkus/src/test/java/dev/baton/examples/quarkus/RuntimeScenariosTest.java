package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.Together;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runtime TCK's scenarios that apply without EJB, on Quarkus (ArC, Baton's build-compatible extension)
 * with the JPA store on the Quarkus data source: exclusion counted inside the method under concurrent
 * HTTP requests, 409 with its problem body, {@code await = false}, the lost-lock signal, an {@code @Exclusive}
 * {@code @Scheduled} job.
 */
@QuarkusTest
@WithTestResource(PostgresResource.class)
class RuntimeScenariosTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void concurrentRequestsForOneSeatRunOneAtATime() throws Exception {
        String seat = "s-" + UUID.randomUUID();
        int threads = 8;
        int perThread = 15;
        List<List<Integer>> results = Together.call(threads, thread -> {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < perThread; i++) {
                statuses.add(Http.post(uri("seats/" + seat)).statusCode());
            }
            return statuses;
        });
        for (List<Integer> statuses : results) {
            assertThat(statuses).containsOnly(200);
        }
        // Without the lock, the read-modify-write loses updates and callers overlap inside.
        assertThat(Http.get(uri("seats/" + seat)).body())
                .isEqualTo("bookings=" + threads * perThread + ",mostInside=1");
    }

    @Test
    void aWaiterThatTimesOutGetsA409Problem() throws Exception {
        String id = "g-" + UUID.randomUUID();
        CompletableFuture<HttpResponse<String>> holder = holdGate(id);
        try {
            HttpResponse<String> response = Http.post(uri("gate/wait/" + id));
            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(response.body())
                    .contains("\"type\":\"urn:dev.baton:problem:lock-timeout\"")
                    .contains("\"status\":409")
                    .contains("\"key\":\"gate:" + id + "\"")
                    .contains("\"timeoutMillis\":300");
        } finally {
            Http.post(uri("gate/open/" + id));
        }
        assertThat(holder.get(60, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(Http.post(uri("gate/wait/" + id)).body())
                .as("free again once released")
                .isEqualTo("got it");
    }

    @Test
    void awaitFalseFailsAtOnceWhileHeld() throws Exception {
        String id = "t-" + UUID.randomUUID();
        CompletableFuture<HttpResponse<String>> holder = holdGate(id);
        try {
            long started = System.nanoTime();
            HttpResponse<String> response = Http.post(uri("gate/try/" + id));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(response.body()).contains("\"timeoutMillis\":0");
            // the configured timeout (10 s) is not waited
            assertThat(tookMillis).isLessThan(5_000);
        } finally {
            Http.post(uri("gate/open/" + id));
        }
        assertThat(holder.get(60, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(Http.post(uri("gate/try/" + id)).body()).isEqualTo("got it");
    }

    @Test
    void aHolderWhoseLockIsTakenOverIsInterruptedAndTold() {
        String name = "l-" + UUID.randomUUID();
        HttpResponse<String> response = Http.post(uri("loss/" + name));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body())
                .isEqualTo("takenOver=1,interrupted=true,held=false,whenLost=LockLostException,"
                        + "checkHeld=LockLostException");
        assertThat(Http.get(uri("loss/events")).body()).contains("signal:" + name + "#");
    }

    /** Starts a request that holds {@code gate:{id}}, and returns once it is inside. */
    private CompletableFuture<HttpResponse<String>> holdGate(String id) throws InterruptedException {
        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> Http.post(uri("gate/hold/" + id)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Http.get(uri("gate/entered/" + id)).body().equals("true")) {
            assertThat(System.nanoTime()).as("the holder entered within 30 s").isLessThan(deadline);
            Thread.sleep(20);
        }
        return holder;
    }

    private URI uri(String path) {
        return URI.create(base.toString()).resolve(path);
    }

    @Test
    void theInstanceJoinsTheElectionAtStartAndALeaderMethodSkipsOnceItSteppedDown() throws Exception {
        HttpResponse<String> led = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - end < 0) {
            led = Http.get(uri("relay"));
            if (led.statusCode() == 200) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(led.statusCode())
                .as("the only instance leads, having joined at start")
                .isEqualTo(200);
        assertThat(led.body()).startsWith("relayed with token ");
        assertThat(Http.post(uri("relay/step-down?pauseMillis=600000")).body()).isEqualTo("true");
        assertThat(Http.get(uri("relay")).statusCode()).as("skipped: null, 204").isEqualTo(204);
        String token = led.body().substring("relayed with token ".length());
        assertThat(Http.get(uri("relay/terms")).body())
                .contains("granted quarkus-relay " + token)
                .contains("revoked quarkus-relay " + token + " STEPPED_DOWN");
    }

    @Test
    void theExclusiveScheduledJobRunsEachPlannedTimeOnceWithGrowingTokens() throws Exception {
        List<String> runs = List.of();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (runs.size() < 3) {
            assertThat(System.nanoTime() - end)
                    .as("3 runs within 30 s: %s", runs)
                    .isNegative();
            Thread.sleep(200);
            runs = Http.get(uri("sweeps")).body().lines().toList();
        }
        List<Long> planned =
                runs.stream().map(run -> Long.parseLong(run.split(" ")[0])).toList();
        List<Long> tokens =
                runs.stream().map(run -> Long.parseLong(run.split(" ")[2])).toList();
        assertThat(planned).as("planned times, once each: %s", runs).doesNotHaveDuplicates();
        assertThat(planned).allMatch(at -> at % Sweeper.PERIOD_MILLIS == 0);
        assertThat(runs).allMatch(run -> run.split(" ")[1].equals("local"));
        assertThat(tokens)
                .as("the run lock's fencing tokens: %s", runs)
                .isSortedAccordingTo(java.util.Comparator.naturalOrder())
                .doesNotHaveDuplicates();
    }
}
