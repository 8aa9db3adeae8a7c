package dev.baton.faults.check;

/**
 * A stretch of time during which a process (or every process, for the database) could not act or
 * reach the store normally.
 *
 * @param begin start, nano
 * @param end end, nano ({@link Long#MAX_VALUE} if it never ended)
 * @param what e.g. {@code stop of pid 123 (fault 4)}
 */
record Interval(long begin, long end, String what) {

    boolean intersects(long from, long to) {
        return begin <= to && end >= from;
    }
}
