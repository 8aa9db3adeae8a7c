package dev.baton.impl.engine;

import dev.baton.LockLostException;

/**
 * Told of what happens to locks: the CDI layer turns it into events. Acquisitions and releases are told
 * on the thread where they happened; a loss on the engine's store-call executor, after the lock's
 * {@code whenLost()} callbacks, never on the renewal scheduler (a listener that blocks holds up only
 * that one notification).
 */
public interface LockListener {

    /** Tells nothing. */
    LockListener NONE = new LockListener() {};

    /**
     * @param lock the lock just acquired
     */
    default void acquired(HeldLock lock) {}

    /**
     * @param lock the lock just released
     */
    default void released(HeldLock lock) {}

    /**
     * @param lock the lock just lost
     * @param reason why
     */
    default void lost(HeldLock lock, LockLostException reason) {}
}
