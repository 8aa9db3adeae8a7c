package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the packaged application ({@code quarkus-run.jar}), two JVMs on one PostgreSQL database:
 * one key is held by one of them at a time, with fencing tokens that grow across both; the {@code @Exclusive}
 * {@code @Scheduled} {@link Sweeper} runs each planned time once in all, in one instance or the other, and in
 * the other alone once the first has stopped at SIGTERM; the run lock's fencing tokens grow with the planned
 * times.
 */
class TwoInstancesIT {

    /** Planned times the journal must hold, while both instances run, before one of them stops. */
    private static final int PLANNED_TIMES_OF_BOTH = 5;

    /** Planned times the other must run alone then. */
    private static final int PLANNED_TIMES_OF_B_ALONE = 3;

    @Test
    void oneKeyAndOneScheduleAcrossTwoJvms() throws Exception {
        try (TestDatabase database = TestDatabase.start("two-instances");
                AppProcess a = AppProcess.start("a", database, "-Dexample.instance=a");
                AppProcess b = AppProcess.start("b", database, "-Dexample.instance=b")) {
            a.awaitUp();
            b.awaitUp();

            oneKeyIsHeldByOneJvmAtATime(a, b);

            // Both instances fire the schedule: one of them runs each planned time.
            List<Run> both = awaitRuns(b, runs -> plannedTimes(runs) >= PLANNED_TIMES_OF_BOTH);
            // SIGTERM: Quarkus stops the application (Baton releases what it holds) and the JVM ends.
            a.stop();
            assertThat(a.logText()).as("a's log").contains("stopped in");
            long aStopped = System.currentTimeMillis();
            // b alone runs the next planned times.
            List<Run> runs = awaitRuns(
                    b,
                    journal -> journal.stream()
                                    .filter(run -> run.plannedAt() > aStopped)
                                    .count()
                            >= PLANNED_TIMES_OF_B_ALONE);
            String journal = journal(runs);
            System.out.println("The sweeps' journal (planned time, instance, fencing token; a stopped at " + aStopped
                    + "):\n" + journal);
            assertThat(runs).as("the journal grows only").startsWith(both.toArray(Run[]::new));
            eachPlannedTimeRanOnceInAll(runs, journal);
            assertThat(runs.stream().filter(run -> run.plannedAt() > aStopped))
                    .as("the runs after a stopped; journal:%n%s", journal)
                    .extracting(Run::instance)
                    .containsOnly("b");

            b.stop();
            assertThat(b.logText()).as("b's log").contains("stopped in");
        }
    }

    private static void oneKeyIsHeldByOneJvmAtATime(AppProcess a, AppProcess b) throws Exception {
        String gate = "pair-" + UUID.randomUUID();
        long first = token(a, gate);
        long second = token(b, gate);

        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> Http.post(a.uri("gate/hold/" + gate)));
        awaitEntered(a, gate);
        try {
            HttpResponse<String> tried = Http.post(b.uri("gate/try/" + gate));
            assertThat(tried.statusCode())
                    .as("b, while a holds: %s", tried.body())
                    .isEqualTo(409);
            assertThat(tried.body()).contains("\"key\":\"gate:" + gate + "\"");
            HttpResponse<String> waited = Http.post(b.uri("gate/wait/" + gate));
            assertThat(waited.statusCode())
                    .as("b waits 300 ms, while a holds: %s", waited.body())
                    .isEqualTo(409);
        } finally {
            Http.post(a.uri("gate/open/" + gate));
        }
        assertThat(holder.get(60, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(Http.post(b.uri("gate/try/" + gate)).body())
                .as("b, once a released")
                .isEqualTo("got it");

        long third = token(b, gate);
        long fourth = token(a, gate);
        assertThat(List.of(first, second, third, fourth))
                .as("fencing tokens of gate:%s, taken by a, b, b, a", gate)
                .isSortedAccordingTo(Comparator.naturalOrder())
                .doesNotHaveDuplicates();
    }

    private static void eachPlannedTimeRanOnceInAll(List<Run> runs, String journal) {
        Map<Long, List<Run>> byPlannedTime =
                runs.stream().collect(Collectors.groupingBy(Run::plannedAt, TreeMap::new, Collectors.toList()));
        byPlannedTime.forEach((plannedAt, ofIt) -> assertThat(ofIt)
                .as("runs of planned time %d, in both instances; journal:%n%s", plannedAt, journal)
                .hasSize(1));

        assertThat(runs).extracting(Run::instance).allMatch(name -> name.equals("a") || name.equals("b"));
        assertThat(runs)
                .as("fencing tokens of the run lock, by planned time; journal:%n%s", journal)
                .extracting(Run::token)
                .isSortedAccordingTo(Comparator.naturalOrder())
                .doesNotHaveDuplicates();

        List<Long> planned = new ArrayList<>(byPlannedTime.keySet());
        for (int i = 1; i < planned.size(); i++) {
            long gap = planned.get(i) - planned.get(i - 1);
            assertThat(gap % Sweeper.PERIOD_MILLIS)
                    .as("planned times are whole periods apart; journal:%n%s", journal)
                    .isZero();
            // Each planned time is run by a firing of either instance; one may be missed when both fire on its
            // edges, when one finds the previous run still holding the schedule's lock, or as an instance stops.
            assertThat(gap)
                    .as("no more than two planned times in a row without a run; journal:%n%s", journal)
                    .isLessThanOrEqualTo(3 * Sweeper.PERIOD_MILLIS);
        }
    }

    /** Reads the journal every 500 ms until it satisfies {@code enough} (at most 45 s). */
    private static List<Run> awaitRuns(AppProcess app, Predicate<List<Run>> enough) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        List<Run> runs = runs(app);
        while (!enough.test(runs)) {
            assertThat(System.nanoTime())
                    .as("the journal holds enough runs within 45 s; journal:%n%s", journal(runs))
                    .isLessThan(deadline);
            Thread.sleep(500);
            runs = runs(app);
        }
        return runs;
    }

    private static long token(AppProcess app, String gate) {
        HttpResponse<String> response = Http.post(app.uri("gate/token/" + gate));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Long.parseLong(response.body().strip());
    }

    private static void awaitEntered(AppProcess app, String gate) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Http.get(app.uri("gate/entered/" + gate)).body().equals("true")) {
            assertThat(System.nanoTime()).as("the holder entered within 30 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** One line of {@code GET /sweeps}. */
    private record Run(long plannedAt, String instance, long token) {}

    private static List<Run> runs(AppProcess app) {
        HttpResponse<String> response = Http.get(app.uri("sweeps"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body()
                .lines()
                .filter(line -> !line.isBlank())
                .map(line -> line.split(" "))
                .map(f -> new Run(Long.parseLong(f[0]), f[1], Long.parseLong(f[2])))
                .toList();
    }

    private static long plannedTimes(List<Run> runs) {
        return runs.stream().map(Run::plannedAt).distinct().count();
    }

    private static String journal(List<Run> runs) {
        return runs.stream()
                .map(run -> run.plannedAt() + " " + run.instance() + " " + run.token())
                .collect(Collectors.joining("\n"));
    }
}
