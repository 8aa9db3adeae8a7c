package dev.baton.impl.engine;

import java.util.OptionalLong;

/**
 * The outcome of {@link LockEngine#tryOnce}: the lock, or how long its holder's lease still runs when
 * that is known.
 *
 * @param lock the held lock, or null when not acquired
 * @param remainingLeaseMillis the holder's remaining lease, when not acquired and the store (or this JVM's
 *     own holder) told it
 */
public record Attempt(HeldLock lock, OptionalLong remainingLeaseMillis) {

    static Attempt acquired(HeldLock lock) {
        return new Attempt(lock, OptionalLong.empty());
    }

    static Attempt notAcquired(OptionalLong remainingLeaseMillis) {
        return new Attempt(null, remainingLeaseMillis);
    }

    /**
     * @return whether the lock was acquired
     */
    public boolean acquired() {
        return lock != null;
    }
}
