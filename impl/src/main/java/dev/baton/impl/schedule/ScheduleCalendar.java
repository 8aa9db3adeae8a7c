package dev.baton.impl.schedule;

import java.time.Instant;

/**
 * When a schedule plans its next firing, as the schedule's own definition says it (for schedulers whose
 * firing carries no timer to ask, such as Jakarta Concurrency 3.1's {@code @Schedule}).
 */
@FunctionalInterface
public interface ScheduleCalendar {

    /**
     * @param firedAt when a firing began
     * @return the interval from {@code firedAt} to the next planned firing after it in ms (at least 1),
     *     or {@link Intervals#NO_NEXT}
     */
    long intervalMillis(Instant firedAt);
}
