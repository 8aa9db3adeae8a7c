package dev.baton.examples.quarkus;

import dev.baton.Exclusive;
import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.event.LockAcquired;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * An exclusive Quarkus scheduled job. Every instance's scheduler fires {@link #sweep} every two seconds;
 * {@code @Exclusive} lets one instance run each planned time (the lock
 * {@code schedule:dev.baton.examples.quarkus.Sweeper.sweep} and the claim of the planned time, in the JPA store
 * that all instances share) and the others skip it. Each run is written to the {@link SweepJournal} with the
 * planned time and the run lock's fencing token; {@code GET /sweeps} lists them. Quarkus's scheduler starts
 * before the application has finished starting: {@code skipExecutionIf} leaves the firings of that time out
 * (the journal's table is created at start).
 */
@ApplicationScoped
public class Sweeper {

    /** The schedule's lock key, {@code @Exclusive}'s default. */
    static final String KEY = "schedule:" + Sweeper.class.getName() + ".sweep";

    /** The period of the schedule, in milliseconds. */
    static final long PERIOD_MILLIS = 2_000;

    /** The planned time this thread's firing claimed, read from the claim's key (see {@link #claimed}). */
    private static final ThreadLocal<Long> CLAIMED = new ThreadLocal<>();

    @Inject
    Locks locks;

    @Inject
    SweepJournal journal;

    @ConfigProperty(name = "example.instance", defaultValue = "local")
    String instance;

    // tag::sweep[]
    @Scheduled(every = "2s", identity = "sweeper", skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    @Exclusive // the planned times of every = "2s": the 2-second periods aligned on the epoch
    public void sweep() {
        long token = locks.current().map(Lock::fencingToken).orElse(0L); // the run lock's token
        journal.record(instance, plannedTime(), token);
    }
    // end::sweep[]

    /**
     * Baton fires {@code LockAcquired} on the firing thread for the run lock and for the claim of the planned
     * time, whose key is {@code <key>@<planned time in epoch milliseconds>}: the planned time as every instance
     * names it.
     */
    // tag::planned-time[]
    void claimed(@Observes LockAcquired acquired) {
        if (acquired.key().startsWith(KEY + "@")) { // the claim of a planned time: <key>@<epoch ms>
            CLAIMED.set(Long.parseLong(acquired.key().substring(KEY.length() + 1)));
        }
    }
    // end::planned-time[]

    /** The planned time Baton claimed for this firing; without a claim (no {@code @Exclusive}), the period's start. */
    private static long plannedTime() {
        Long claimed = CLAIMED.get();
        CLAIMED.remove();
        if (claimed != null) {
            return claimed;
        }
        return Math.floorDiv(System.currentTimeMillis(), PERIOD_MILLIS) * PERIOD_MILLIS;
    }
}
