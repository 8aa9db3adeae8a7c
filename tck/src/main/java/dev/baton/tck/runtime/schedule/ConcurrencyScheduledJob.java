package dev.baton.tck.runtime.schedule;

import dev.baton.Exclusive;
import dev.baton.Lock;
import dev.baton.Locks;
import jakarta.enterprise.concurrent.Asynchronous;
import jakarta.enterprise.concurrent.Schedule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;

/**
 * A Jakarta Concurrency 3.1 schedule every two seconds ({@code @Asynchronous(runAt = @Schedule(...))},
 * Jakarta EE 11), {@code @Exclusive} under its default key {@value #KEY}. Started once at deployment by
 * {@link ConcurrencyScheduleStarter}; it runs until its method returns a result, which it never does
 * (a skipped firing returns null too, so the schedule goes on).
 *
 * <p>Concurrency gives the method no timer: the planned time of a run is the even second at or before it
 * fires (the schedule's seconds), right for a firing less than a period late.
 */
@ApplicationScoped
public class ConcurrencyScheduledJob {

    /** The default key of {@link #run()}: {@code schedule:<declaring class>.<method>}. */
    public static final String KEY = "schedule:" + "dev.baton.tck.runtime.schedule.ConcurrencyScheduledJob.run";

    @Inject
    ScheduleLog log;

    @Inject
    Locks locks;

    @Exclusive
    @Asynchronous(runAt = @Schedule(cron = "*/2 * * * * *"))
    public CompletableFuture<Void> run() {
        long fired = System.currentTimeMillis();
        log.ran(
                Math.floorDiv(fired, 2_000) * 2,
                locks.current().map(Lock::key).filter(KEY::equals).isPresent(),
                "fired=" + fired);
        return null; // go on with the schedule
    }
}
