package dev.baton.tck.runtime.schedule;

import dev.baton.Exclusive;
import dev.baton.Lock;
import dev.baton.Locks;
import jakarta.ejb.Schedule;
import jakarta.ejb.Stateless;
import jakarta.ejb.Timer;
import jakarta.inject.Inject;

/**
 * An EJB timer every two seconds on a stateless bean (the orders example's timer is on a singleton),
 * {@code @Exclusive} under its default key {@value #KEY}: each run records its planned time — the timer's
 * next timeout less one period, to the second: the same for every firing of one planned time, however late
 * it fires — in the {@link ScheduleLog}.
 */
@Stateless
public class ScheduledJob {

    /** The default key of {@link #run(Timer)}: {@code schedule:<declaring class>.<method>}. */
    public static final String KEY = "schedule:" + "dev.baton.tck.runtime.schedule.ScheduledJob.run";

    /** The period of the schedule below, in milliseconds. */
    public static final long PERIOD_MILLIS = 2_000;

    @Inject
    ScheduleLog log;

    @Inject
    Locks locks;

    @Exclusive
    @Schedule(second = "*/2", minute = "*", hour = "*", persistent = false)
    public void run(Timer timer) {
        long next = timer.getNextTimeout().getTime();
        long planned = Math.floorDiv(next - PERIOD_MILLIS + 500, 1000);
        log.ran(
                planned,
                locks.current().map(Lock::key).filter(KEY::equals).isPresent(),
                "next=" + next + " fired=" + System.currentTimeMillis());
    }
}
