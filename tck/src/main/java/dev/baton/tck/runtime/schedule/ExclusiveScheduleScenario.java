package dev.baton.tck.runtime.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The rules every exclusive schedule follows on a server, whatever its scheduler: it fires and runs once
 * per planned time, each run holding the schedule's lock; while the test holds the schedule's key through
 * the application's {@code Locks} ({@link ScheduleResource}) the firings are skipped ({@code ScheduleSkipped},
 * no run, no exception into the scheduler), and after it gives the key back the job runs again. Runs are
 * counted by the application per planned time: nothing is inferred from how long the test waited. A
 * planned time whose claim the test holds ({@code <key>@<epoch ms>}, as another instance that ran it would) is
 * skipped, and the planned times after it run.
 * A subclass deploys one scheduled job and names its key.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
abstract class ExclusiveScheduleScenario {

    /** Planned times the first test waits for. */
    static final int PLANNED_TIMES = 4;

    /** Skipped firings the second test waits for while it holds the key. */
    static final int SKIPS = 3;

    @ArquillianResource
    URL base;

    /** @return the key of the deployed job */
    abstract String key();

    /** The check of the rule; each subclass declares it as a test of its own, with its own rule id. */
    void firesAndRunsOncePerPlannedTime() {
        Map<Long, Integer> runs =
                await("runs of " + PLANNED_TIMES + " planned times", this::runs, r -> r.size() >= PLANNED_TIMES);

        assertThat(runs)
                .as("runs per planned time (epoch second); %s", details())
                .hasSizeGreaterThanOrEqualTo(PLANNED_TIMES);
        assertThat(runs.values()).as("one run per planned time; %s", details()).containsOnly(1);
        assertThat(runs.keySet())
                .as("planned times on the schedule's even seconds; %s", details())
                .allMatch(second -> second % 2 == 0);
        Map<String, Integer> state = state();
        assertThat(state.get("unguarded"))
                .as("runs without the schedule's lock (Locks.current()); %s", details())
                .isZero();
        assertThat(state.get("other"))
                .as("no firing skipped for a store or manager failure; %s", details())
                .isZero();
    }

    /** The check of the rule; each subclass declares it as a test of its own, with its own rule id. */
    void firingsAreSkippedWhileTheKeyIsHeldElsewhere() {
        await("a first run", this::state, s -> s.get("runs") >= 1);

        Map<String, Integer> atHold =
                parse(post("api/schedule/hold?key=" + URLEncoder.encode(key(), StandardCharsets.UTF_8)));
        Map<String, Integer> whileHeld;
        Map<String, Integer> atRelease;
        try {
            whileHeld = await(
                    SKIPS + " skipped firings while the key is held",
                    this::state,
                    s -> s.get("skipped") >= atHold.get("skipped") + SKIPS);
        } finally {
            atRelease = parse(post("api/schedule/release"));
        }

        assertThat(whileHeld.get("skipped"))
                .as("ScheduleSkipped events while held; %s", details())
                .isGreaterThanOrEqualTo(atHold.get("skipped") + SKIPS);
        assertThat(atRelease.get("runs"))
                .as("runs while the key was held elsewhere (from %s to %s); %s", atHold, atRelease, details())
                .isEqualTo(atHold.get("runs"));
        assertThat(atRelease.get("held"))
                .as("the test's lock was held until it gave it back")
                .isEqualTo(1);
        assertThat(atRelease.get("other"))
                .as("no firing skipped for a store or manager failure; %s", details())
                .isZero();

        Map<String, Integer> after = await(
                "runs again after the key was given back",
                this::state,
                s -> s.get("runs") >= atRelease.get("runs") + 2);
        assertThat(after.get("runs"))
                .as("runs after release; %s", details())
                .isGreaterThanOrEqualTo(atRelease.get("runs") + 2);
        assertThat(runs().values())
                .as("one run per planned time; %s", details())
                .containsOnly(1);
    }

    /**
     * The check of the rule; each subclass declares it as a test of its own, with its own rule id. The test takes
     * the claim of a planned time a few periods ahead, as another instance that ran it would hold it: the key
     * {@code <schedule key>@<epoch ms>}, named by the next planned time after it (the EJB timer's next timeout,
     * the Concurrency schedule's next run time), by the server's clock. That firing skips
     * ({@code PLANNED_TIME_CLAIMED}) and runs nothing; the planned times after it run.
     */
    void aPlannedTimeClaimedElsewhereIsSkipped() {
        await("a first run", this::state, s -> s.get("runs") >= 1);
        long period = ScheduledJob.PERIOD_MILLIS;
        long planned = (Long.parseLong(get("api/schedule/now").trim()) / period + 3) * period;
        String claim = key() + "@" + (planned + period);

        Map<String, Integer> atHold =
                parse(post("api/schedule/hold?key=" + URLEncoder.encode(claim, StandardCharsets.UTF_8)));
        Map<String, Integer> whileHeld;
        Map<String, Integer> atRelease;
        try {
            whileHeld = await(
                    "the firing of the claimed planned time " + planned + " skipped",
                    this::state,
                    s -> s.get("claimed") > atHold.get("claimed"));
        } finally {
            atRelease = parse(post("api/schedule/release"));
        }

        assertThat(whileHeld.get("claimed"))
                .as("firings skipped as claimed while the test held %s; %s", claim, details())
                .isGreaterThan(atHold.get("claimed"));
        assertThat(runs())
                .as("no run of the claimed planned time (epoch second %d); %s", planned / 1000, details())
                .doesNotContainKey(planned / 1000);
        assertThat(atRelease.get("other"))
                .as("no firing skipped for a store or manager failure; %s", details())
                .isZero();
        Map<String, Integer> after = await(
                "runs of the planned times after it", this::state, s -> s.get("runs") >= atRelease.get("runs") + 2);
        assertThat(after.get("runs"))
                .as("runs after the claimed planned time; %s", details())
                .isGreaterThanOrEqualTo(atRelease.get("runs") + 2);
        assertThat(runs().values())
                .as("one run per planned time; %s", details())
                .containsOnly(1);
    }

    private Map<String, Integer> state() {
        return parse(get("api/schedule/state"));
    }

    private Map<Long, Integer> runs() {
        Map<Long, Integer> runs = new LinkedHashMap<>();
        for (String line : get("api/schedule/runs").split("\n")) {
            if (!line.isBlank()) {
                String[] field = line.split("=");
                runs.put(Long.parseLong(field[0].trim()), Integer.parseInt(field[1].trim()));
            }
        }
        return runs;
    }

    private String details() {
        return get("api/schedule/details");
    }

    private String get(String path) {
        Http.Response response = Http.get(base, path);
        assertThat(response.status()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    private String post(String path) {
        Http.Response response = Http.post(base, path);
        assertThat(response.status()).as("POST %s: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    /** {@code a=1,b=2,held=true} as a map; {@code true}/{@code false} as 1/0. */
    static Map<String, Integer> parse(String text) {
        Map<String, Integer> values = new LinkedHashMap<>();
        for (String pair : text.trim().split(",")) {
            String[] field = pair.split("=");
            String value = field[1].trim();
            values.put(field[0].trim(), value.equals("true") ? 1 : value.equals("false") ? 0 : Integer.parseInt(value));
        }
        return values;
    }

    /** Reads {@code read} until {@code done} holds, at most 60 s (scaled); the last value read. */
    private <T> T await(String what, java.util.function.Supplier<T> read, Predicate<T> done) {
        long deadline =
                System.nanoTime() + RuntimeTck.scaled(Duration.ofSeconds(60)).toNanos();
        T value = read.get();
        while (!done.test(value) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
            value = read.get();
        }
        return value;
    }
}
