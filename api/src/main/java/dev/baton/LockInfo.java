package dev.baton;

import java.time.Duration;
import java.util.Objects;

/**
 * What is known of one held lock: who holds a key ({@link Locks#inspect(String)}) or a lock this
 * application holds ({@link Locks#held()}). A snapshot: it does not change when the lock does.
 *
 * @param key the key, as the application names it (without the manager's prefix)
 * @param fencingToken the fencing token of the holder's acquisition
 * @param remainingLease how long the holder's lease still runs: by the store's clock for
 *     {@link Locks#inspect(String)}, by this process's estimate for {@link Locks#held()}
 * @param heldHere whether the holder is this lock manager in this application (one of {@link Locks#held()})
 */
public record LockInfo(String key, long fencingToken, Duration remainingLease, boolean heldHere) {

    /**
     * Checks the components.
     *
     * @param key the key, without the manager's prefix
     * @param fencingToken the fencing token of the holder's acquisition
     * @param remainingLease how long the holder's lease still runs
     * @param heldHere whether the holder is this lock manager in this application
     * @throws NullPointerException if the key or the lease is null
     */
    public LockInfo {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(remainingLease, "remainingLease");
    }
}
