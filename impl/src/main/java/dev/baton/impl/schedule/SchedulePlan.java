package dev.baton.impl.schedule;

import dev.baton.spi.LockArguments;
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
 * @param retentionMillis the retention set for the method (annotation, override or
 *     {@code baton.exclusive.retention}), if any
 * @param retryFailed whether a run that throws gives its planned time back ({@code @Exclusive(retryFailed)})
 */
public record SchedulePlan(
        String method,
        String manager,
        String key,
        OptionalLong holdMillis,
        OptionalLong periodMillis,
        Optional<ScheduleCalendar> calendar,
        OptionalLong retentionMillis,
        boolean retryFailed) {

    /** How many intervals to the next planned firing a claim is kept by default: 3. */
    public static final int DEFAULT_RETENTION_PERIODS = 3;

    /** The least default retention: 1 minute, for short periods. */
    public static final long MIN_DEFAULT_RETENTION_MILLIS = 60_000;

    /** A plan without a calendar (EJB timers and plain methods), default retention, failed runs not retried. */
    public SchedulePlan(String method, String manager, String key, OptionalLong holdMillis, OptionalLong periodMillis) {
        this(method, manager, key, holdMillis, periodMillis, Optional.empty(), OptionalLong.empty(), false);
    }

    /**
     * The planned firing this firing runs for, the same on every instance: for an EJB timer, what
     * {@link ContainerTimers#plannedTime} says; else the next firing of the calendar after this one (Jakarta
     * Concurrency 3.1); else the firing's period aligned on the epoch. Empty where none is knowable (a direct
     * call of a timeout method without a period, the last firing of a timer): only the run lock guards it.
     *
     * @param timer the firing's timer ({@code InvocationContext.getTimer()}), or null
     * @param firedAt when the firing began, by this instance's wall clock
     * @return the planned time, if knowable
     */
    public Optional<PlannedTime> plannedTime(Object timer, Instant firedAt) {
        long firedAtMillis = firedAt.toEpochMilli();
        if (timer != null) {
            PlannedTime timed = ContainerTimers.plannedTime(timer, firedAtMillis, periodMillis.orElse(0));
            if (timed != null) {
                return Optional.of(timed);
            }
        }
        if (calendar.isPresent() && periodMillis.isEmpty()) {
            long interval;
            try {
                interval = calendar.get().intervalMillis(firedAt);
            } catch (RuntimeException e) {
                interval = Intervals.UNKNOWN;
            }
            if (interval >= 0 && interval != Intervals.NO_NEXT) {
                // the next run after this firing names it, as an EJB timer's next timeout does
                return Optional.of(new PlannedTime(firedAtMillis + interval, interval));
            }
            return Optional.empty();
        }
        if (periodMillis.isPresent() && (timer == null || ContainerTimers.intervalMillis(timer, firedAtMillis) < 0)) {
            return Optional.of(PlannedTime.bucket(firedAtMillis, periodMillis.getAsLong()));
        }
        return Optional.empty();
    }

    /**
     * How long the claim of a planned time is kept, from the claim: the retention set for the method, else
     * {@value #DEFAULT_RETENTION_PERIODS} intervals to the next planned firing, at least 1 minute.
     *
     * @param planned the planned time
     * @return the retention in ms, at most 365 days
     */
    public long retentionFor(PlannedTime planned) {
        long retention = retentionMillis.orElseGet(() -> Math.max(
                MIN_DEFAULT_RETENTION_MILLIS,
                planned.intervalMillis() > Long.MAX_VALUE / DEFAULT_RETENTION_PERIODS
                        ? Long.MAX_VALUE
                        : planned.intervalMillis() * DEFAULT_RETENTION_PERIODS));
        return Math.min(retention, LockArguments.MAX_DURATION_MILLIS);
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
     * How long after the firing the run lock stays held: only a hold set for the method holds it (the claim of
     * the planned time does the rest), and never past the next planned firing. The interval is the
     * container's where it reports one, else the period.
     *
     * @param containerIntervalMillis the container's interval to the next firing, or an {@link Intervals} value
     * @return the hold in ms; 0 to release when the run ends
     */
    public long holdFor(long containerIntervalMillis) {
        if (holdMillis.isEmpty()) {
            return 0;
        }
        long interval = containerIntervalMillis >= 0 ? containerIntervalMillis : periodMillis.orElse(Intervals.UNKNOWN);
        return interval < 0 ? holdMillis.getAsLong() : Math.min(holdMillis.getAsLong(), interval);
    }
}
