package dev.baton.impl.schedule;

/**
 * The identity of one planned firing of a schedule, the same on every instance whose clocks are roughly
 * right, and how far the schedule's next planned firing is from it.
 *
 * @param identityMillis the instant that names the planned firing, in epoch milliseconds: the next planned
 *     firing after it (a calendar: every instance's timer reports the same one), or the start of its
 *     epoch-aligned period (a period, an interval timer)
 * @param intervalMillis the interval from this firing to the next planned one, at least 1 ms: what the default
 *     retention is counted in
 */
public record PlannedTime(long identityMillis, long intervalMillis) {

    /** What separates the schedule's key from the identity in a claim's key. */
    public static final char CLAIM_SEPARATOR = '@';

    /** The longest identity in a claim's key: a negative 19-digit epoch millisecond value. */
    static final int MAX_IDENTITY_LENGTH = 20;

    /**
     * The planned firing of a period aligned on the epoch (UTC): {@code floor(firedAt / period) * period}.
     *
     * @param firedAtMillis when the firing began, by the wall clock
     * @param periodMillis the period, at least 1 ms
     * @return the planned time
     */
    public static PlannedTime bucket(long firedAtMillis, long periodMillis) {
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("period must be at least 1 ms, was " + periodMillis);
        }
        return new PlannedTime(Math.floorDiv(firedAtMillis, periodMillis) * periodMillis, periodMillis);
    }

    /**
     * @param scheduleKey the schedule's key ({@code schedule:com.acme.Reports.nightly})
     * @return the key of the claim of this planned time: {@code <scheduleKey>@<identity in epoch ms>}, e.g.
     *     {@code schedule:com.acme.Reports.nightly@1767229200000}
     */
    public String claimKey(String scheduleKey) {
        return scheduleKey + CLAIM_SEPARATOR + identityMillis;
    }
}
