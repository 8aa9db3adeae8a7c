package dev.baton.faults.check;

/**
 * A stretch of time during which a process (or every process, for the database) could not act or
 * reach the store normally.
 *
 * @param begin start, nano
 * @param end end, nano ({@link Long#MAX_VALUE} if it never ended)
 * @param what e.g. {@code stop of pid 123 (fault 4)}
 * @param cause what an overlap it explains is classified as: the fault's label ({@code stop},
 *     {@code partition}, {@code session-kill}, {@code db-restart}, ...), or {@value #OWN_PAUSE}
 */
record Interval(long begin, long end, String what, String cause) {

    /** The cause of a pause a worker noticed itself that no {@code SIGSTOP} caused (GC, an overloaded machine). */
    static final String OWN_PAUSE = "own-pause";

    /** The cause of an overlap the application allowed: it let a revoked term's lock go while its action ran. */
    static final String STILL_ACTING = "still-acting";

    boolean intersects(long from, long to) {
        return begin <= to && end >= from;
    }
}
