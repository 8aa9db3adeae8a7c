package dev.baton.spi;

import java.util.Objects;

/**
 * The live holder of a key, as {@link LockStore#inspect(String)} reports it.
 *
 * @param owner the owner token of the holder's acquisition: what {@link LockStore#release(String, String)}
 *     takes to free the key (the runtime's administrative force-release does exactly that). Never shown to
 *     applications.
 * @param fencingToken the token of the holder's acquisition
 * @param remainingLeaseMillis how long the holder's lease still runs, by the store's clock, at least 1
 */
public record Holder(String owner, long fencingToken, long remainingLeaseMillis) {

    /**
     * Checks the components.
     *
     * @param owner the owner token of the holder's acquisition
     * @param fencingToken the token of the holder's acquisition, positive
     * @param remainingLeaseMillis how long the holder's lease still runs, positive
     * @throws IllegalArgumentException if the token or the remaining lease is not positive
     */
    public Holder {
        Objects.requireNonNull(owner, "owner");
        if (fencingToken <= 0) {
            throw new IllegalArgumentException("fencing token must be positive, was " + fencingToken);
        }
        if (remainingLeaseMillis <= 0) {
            // A lease with nothing left is over: the key has no holder.
            throw new IllegalArgumentException(
                    "a live holder's remaining lease is at least 1 ms, was " + remainingLeaseMillis);
        }
    }

    @Override
    public String toString() {
        // The owner token is what frees the key: not in logs.
        return "Holder[token=" + fencingToken + ", remaining=" + remainingLeaseMillis + "ms]";
    }
}
