package dev.baton.impl.schedule;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything one firing of an {@code @Exclusive} method needs, computed and validated at deployment.
 *
 * @param method {@code com.acme.Reports.nightly}, for logs and events
 * @param manager the lock manager's name
 * @param key the schedule's key
 * @param holdMillis the hold set for the method (annotation, override or {@code baton.exclusive.hold}), if any
 * @param periodMillis the period given for the method, if any
 * @param calendar the schedule's own next firing where its definition is at hand and no timer reports it
 *     (Jakarta Concurrency 3.1 {@code @Schedule})
 */
public record SchedulePlan(
        String method,
        String manager,
        String key,
        OptionalLong holdMillis,
        OptionalLong periodMillis,
        Optional<ScheduleCalendar> calendar) {

    /** The most the default hold is: 30 s. */
    public static final long MAX_DEFAULT_HOLD_MILLIS = 30_000;

    /** A plan without a calendar (EJB timers and plain methods). */
    public SchedulePlan(String method, String manager, String key, OptionalLong holdMillis, OptionalLong periodMillis) {
        this(method, manager, key, holdMillis, periodMillis, Optional.empty());
    }

    /**
     * The interval from a firing to the next planned one: the timer's where the container gave one, else the
     * calendar's.
     *
     * @param timer the firing's timer ({@code InvocationContext.getTimer()}), or null
     * @param firedAt when the firing began
     * @return the interval in ms, or an {@link Intervals} value
     */
    public long intervalMillis(Object timer, Instant firedAt) {
        long interval = ContainerTimers.intervalMillis(timer, firedAt.toEpochMilli());
        if (interval != Intervals.UNKNOWN || calendar.isEmpty()) {
            return interval;
        }
        try {
            return calendar.get().intervalMillis(firedAt);
        } catch (RuntimeException e) {
            return Intervals.UNKNOWN; // the period, or a hold set for the method, still applies
        }
    }

    /**
     * How long after the firing the lock stays held: the hold set for the method, else half the interval to
     * the next planned firing, at most 30 s; never past the next planned firing. The interval is the
     * container's where it reports one, else the period. With neither (a direct call of a timeout method),
     * only a hold set for the method holds the lock: there is no planned time to protect.
     *
     * @param containerIntervalMillis the container's interval to the next firing, or an {@link Intervals} value
     * @return the hold in ms; 0 to release when the run ends
     */
    public long holdFor(long containerIntervalMillis) {
        long interval = containerIntervalMillis >= 0 ? containerIntervalMillis : periodMillis.orElse(Intervals.UNKNOWN);
        if (interval < 0) {
            return holdMillis.orElse(0);
        }
        return Math.min(holdMillis.orElse(Math.min(interval / 2, MAX_DEFAULT_HOLD_MILLIS)), interval);
    }
}
