package dev.baton.spi;

/**
 * A waiting caller's claim on the next turn of a key, carried by an {@link Acquisition} to stores that declare
 * {@link StoreCapability#WAITING_TURNS}.
 *
 * <p>A key keeps at most one turn: the waiter that takes the key next when it is free. Of two waiters,
 * the one that has waited longer gets the turn, so the waiters of every process take a key in about
 * the order they began to wait, and a process that has just released a key cannot take it straight
 * back from someone who has been waiting. A turn lasts {@link #keepMillis()} by the store's clock
 * unless its waiter calls again; a waiter that dies or stops calling holds nobody up for longer.
 *
 * @param waiter identifies one waiting acquisition across its calls: the same rules as an owner token
 *     (1 to {@value LockArguments#MAX_OWNER_LENGTH} printable ASCII chars)
 * @param waitedMillis how long the caller has been waiting so far, {@code >= 0}; the store turns it into
 *     a start time on its own clock, so waiters of instances with skewed clocks compare fairly
 * @param keepMillis how long the store keeps the turn without another call from the waiter, 1 to
 *     {@value LockArguments#MAX_DURATION_MILLIS}
 */
public record Turn(String waiter, long waitedMillis, long keepMillis) {

    /**
     * Checks the components.
     *
     * @param waiter identifies the waiting acquisition (an owner token's rules)
     * @param waitedMillis how long the caller has waited so far, {@code >= 0}
     * @param keepMillis how long the store keeps the turn without another call
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public Turn {
        LockArguments.requireValidOwner(waiter);
        if (waitedMillis < 0 || waitedMillis > LockArguments.MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException("waitedMillis must be between 0 and " + LockArguments.MAX_DURATION_MILLIS
                    + ", was " + waitedMillis);
        }
        if (keepMillis < 1 || keepMillis > LockArguments.MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException(
                    "keepMillis must be between 1 and " + LockArguments.MAX_DURATION_MILLIS + ", was " + keepMillis);
        }
    }
}
