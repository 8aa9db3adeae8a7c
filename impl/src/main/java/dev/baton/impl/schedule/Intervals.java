package dev.baton.impl.schedule;

/** The interval from a firing to the next planned one, as the container reports it: a value in ms, or one of these. */
public final class Intervals {

    /** The container does not say (no timer: a plain method, or a direct call). */
    public static final long UNKNOWN = -1;

    /** The container says there is no next firing (the timer's last). */
    public static final long NO_NEXT = Long.MAX_VALUE;

    private Intervals() {}
}
