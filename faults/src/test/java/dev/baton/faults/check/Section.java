package dev.baton.faults.check;

/**
 * One critical section as a worker's history tells it: from {@code enter} to {@code exit}, or to the
 * death of its process when the exit line is missing.
 */
public final class Section {

    final long pid;
    final String thread;
    final String key;
    final long token;
    final String api;
    final long requested;
    final long entered;
    /**
     * Shared mode: {@code permit}, {@code read} or {@code write} (see {@link dev.baton.faults.history.Vocabulary#PERMIT});
     * null for a critical section of the exclusive keys.
     */
    final String mode;
    /**
     * How many shared holders its acquisition allowed at once, itself included: the permits of a permit, {@link
     * Integer#MAX_VALUE} for a reader without permits; 0 for an exclusive holder (a writer, a critical section).
     */
    final int sharedLimit;

    Long exited;
    Boolean heldAtExit;
    Integer fencedRows;
    /** When the protected write's outcome was written down (after its commit). */
    long fencedAt;

    String fencedError;
    Long counterRead;
    String counterError;
    /** When the section ended for the purpose of overlaps: its exit, else its process's death. */
    long end = Long.MAX_VALUE;
    /** Part of an overlap that a fault of the older holder explains. */
    boolean explainedOverlap;
    /** The cause of the first explained overlap it took part in (see {@link Interval#cause()}). */
    String overlapCause;

    Section(long pid, String thread, String key, long token, String api, long requested, long entered) {
        this(pid, thread, key, token, api, requested, entered, null, 0);
    }

    Section(
            long pid,
            String thread,
            String key,
            long token,
            String api,
            long requested,
            long entered,
            String mode,
            int sharedLimit) {
        this.pid = pid;
        this.thread = thread;
        this.key = key;
        this.token = token;
        this.api = api;
        this.requested = requested;
        this.entered = entered;
        this.mode = mode;
        this.sharedLimit = sharedLimit;
    }

    /** @return whether it held its key alone (a writer, a critical section), not as one of several shared holders */
    boolean exclusive() {
        return sharedLimit == 0;
    }

    /** @return whether another shared holder may have held its key beside it: shared, and more than one allowed */
    boolean shares() {
        return sharedLimit > 1;
    }

    /** @return the holder: process and thread */
    String holder() {
        return pid + "/" + thread;
    }

    /** @return {@code key#token} */
    String id() {
        return key + "#" + token;
    }

    /** @return the wait for the lock, in milliseconds */
    double waitMillis() {
        return (entered - requested) / 1e6;
    }

    String describe(Clock clock) {
        return "pid " + pid + " thr " + thread + " tok " + token + " (" + api + (mode == null ? "" : ", " + mode)
                + ") entered " + clock.at(entered)
                + (exited != null
                        ? " exited " + clock.at(exited) + " isHeld=" + heldAtExit
                        : end == Long.MAX_VALUE ? " never exited" : " no exit line, process gone " + clock.at(end));
    }
}
