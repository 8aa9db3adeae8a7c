package dev.baton.impl.schedule;

import java.util.OptionalLong;

/**
 * Everything one firing of an {@code @Exclusive} method needs, computed and validated at deployment.
 *
 * @param method {@code com.acme.Reports.nightly}, for logs and events
 * @param manager the lock manager's name
 * @param key the schedule's key
 * @param holdMillis the hold set for the method (annotation, override or {@code baton.exclusive.hold}), if any
 * @param periodMillis the period given for the method, if any
 */
public record SchedulePlan(String method, String manager, String key, OptionalLong holdMillis, OptionalLong periodMillis) {

    /** The most the default hold is: 30 s. */
    public static final long MAX_DEFAULT_HOLD_MILLIS = 30_000;

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
