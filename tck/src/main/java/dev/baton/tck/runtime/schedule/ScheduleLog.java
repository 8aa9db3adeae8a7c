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
 * What the application saw of its one exclusive schedule (each scenario deploys one job): its runs counted
 * per planned time, whether each run held the schedule's lock, and the {@link ScheduleSkipped} events.
 */
@ApplicationScoped
public class ScheduleLog {

    private final Map<Long, AtomicInteger> runsByPlannedSecond = new ConcurrentSkipListMap<>();
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger unguarded = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private final AtomicInteger claimed = new AtomicInteger();
    private final List<String> otherSkips = new CopyOnWriteArrayList<>();
    private final List<String> firings = new CopyOnWriteArrayList<>();

    /**
     * A run of the job.
     *
     * @param plannedSecond its planned time, epoch seconds
     * @param guarded whether the run held the schedule's lock ({@code Locks.current()} inside the run)
     * @param detail how the planned time was found, for a failure's message
     */
    void ran(long plannedSecond, boolean guarded, String detail) {
        runsByPlannedSecond
                .computeIfAbsent(plannedSecond, k -> new AtomicInteger())
                .incrementAndGet();
        runs.incrementAndGet();
        if (!guarded) {
            unguarded.incrementAndGet();
        }
        if (firings.size() < 200) {
            firings.add("planned=" + plannedSecond + "s guarded=" + guarded + " " + detail);
        }
    }

    void skippedFiring(@Observes ScheduleSkipped event) {
        switch (event.reason()) {
            case HELD_ELSEWHERE -> skipped.incrementAndGet();
            // one server fires each planned time once; a firing the container repeats for it skips here
            case PLANNED_TIME_CLAIMED -> claimed.incrementAndGet();
            default -> otherSkips.add(event.toString());
        }
    }

    /**
     * {@code runs=<n>,unguarded=<u>,skipped=<m>,claimed=<c>,other=<k>}: runs, runs without the lock, skips
     * because the run lock was held elsewhere, skips because the planned time was claimed already, skips for
     * any other reason (a store or manager failure).
     */
    String state() {
        return "runs=" + runs.get() + ",unguarded=" + unguarded.get() + ",skipped=" + skipped.get() + ",claimed="
                + claimed.get() + ",other=" + otherSkips.size();
    }

    /** One line per planned time with runs: {@code <epoch second>=<runs>}, in order. */
    String runsByPlannedTime() {
        return runsByPlannedSecond.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().get())
                .collect(Collectors.joining("\n"));
    }

    /** The first firings and any skip for a failure, for a failure's message. */
    String details() {
        return "firings:\n  " + String.join("\n  ", firings) + "\nother skips:\n  " + String.join("\n  ", otherSkips);
    }
}
