package dev.baton.spi;

import java.util.Objects;

/**
 * What {@link LockStore#handOver} did.
 *
 * @param released true if the owner held a live lock on the key and it is gone: handed over, or freed
 * @param next what the next caller's acquisition got: the key with a new fencing token, or a refusal (the key
 *     then is as {@link LockStore#release} leaves it: free, or kept for another waiter's turn)
 */
public record HandOverResult(boolean released, AcquireResult next) {

    /**
     * Checks the components.
     *
     * @param released whether the owner's lock was released
     * @param next what the next caller got
     * @throws NullPointerException if {@code next} is null
     */
    public HandOverResult {
        Objects.requireNonNull(next, "next");
    }

    /**
     * Checks that an acquisition may take a handed-over key: exclusive and without a turn.
     *
     * @param next the acquisition
     * @return {@code next}
     * @throws IllegalArgumentException naming what is wrong
     */
    public static Acquisition requireHandOverTo(Acquisition next) {
        Objects.requireNonNull(next, "next");
        if (next.isShared()) {
            throw new IllegalArgumentException("a key is handed over to an exclusive acquisition only, not to one with"
                    + " sharedLimit " + next.sharedLimit());
        }
        if (next.turn() != null) {
            throw new IllegalArgumentException(
                    "a key is handed over to an acquisition without a turn: it gets the key as a caller that has not"
                            + " waited would, never one kept for another waiter's turn");
        }
        return next;
    }
}
