package dev.baton.tck.runtime.schedule;

import dev.baton.event.ScheduleSkipped;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * What the application saw of its schedule: the runs of {@link ScheduledJob} counted per planned time,
 * and the {@link ScheduleSkipped} events of its key.
 *
 * <p>The planned time of a run is the timer's next timeout less one period, to the second: the same
 * for every firing of one planned time, however late it fires (never inferred from the wall clock).
 */
@ApplicationScoped
public class ScheduleLog {

    private final Map<Long, AtomicInteger> runsByPlannedSecond = new ConcurrentSkipListMap<>();
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private final List<String> otherSkips = new CopyOnWriteArrayList<>();
    private final List<String> firings = new CopyOnWriteArrayList<>();

    /** A run of the job: its timer's next timeout and when it fired (epoch milliseconds). */
    void ran(long nextTimeoutMillis, long firedAtMillis) {
        long planned = Math.floorDiv(nextTimeoutMillis - ScheduledJob.PERIOD_MILLIS + 500, 1000);
        runsByPlannedSecond.computeIfAbsent(planned, k -> new AtomicInteger()).incrementAndGet();
        runs.incrementAndGet();
        if (firings.size() < 200) {
            firings.add("planned=" + planned + "s next=" + nextTimeoutMillis + " fired=" + firedAtMillis);
        }
    }

    void skippedFiring(@Observes ScheduleSkipped event) {
        if (event.key().endsWith(ScheduledJob.KEY) && event.reason() == ScheduleSkipped.Reason.HELD_ELSEWHERE) {
            skipped.incrementAndGet();
        } else {
            otherSkips.add(event.toString());
        }
    }

    /** {@code runs=<n>,skipped=<m>,other=<k>}: runs, skips of the job's key held elsewhere, any other skip. */
    String state() {
        return "runs=" + runs.get() + ",skipped=" + skipped.get() + ",other=" + otherSkips.size();
    }

    /** One line per planned time with runs: {@code <epoch second>=<runs>}, in order. */
    String runsByPlannedTime() {
        return runsByPlannedSecond.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().get())
                .collect(Collectors.joining("\n"));
    }

    /** The first firings and any skip for another reason than held elsewhere, for a failure's message. */
    String details() {
        return "firings:\n  " + String.join("\n  ", firings) + "\nother skips:\n  " + String.join("\n  ", otherSkips);
    }
}
