package dev.baton.impl.engine;

import dev.baton.LockLostException;

/**
 * Told of what happens to locks: the CDI layer turns it into events and transaction rollbacks. Called
 * on the thread where it happened (the renewal thread for a loss); must not block.
 */
public interface LockListener {

    /** Tells nothing. */
    LockListener NONE = new LockListener() {
    };

    /**
     * @param lock the lock just acquired
     */
    default void acquired(HeldLock lock) {
    }

    /**
     * @param lock the lock just released
     */
    default void released(HeldLock lock) {
    }

    /**
     * @param lock the lock just lost
     * @param reason why
     */
    default void lost(HeldLock lock, LockLostException reason) {
    }
}
