package dev.baton.impl.engine;

import dev.baton.LockLostException;

/**
 * Told of what happens to locks: the CDI layer turns it into events. An acquisition is told on the thread
 * that acquired; a release on the thread that released, which is not always the holder's: a lock held into
 * its JTA transaction is released by whichever comes last, the method's return or the transaction's
 * completion (a transaction that times out is rolled back on the transaction manager's thread, which
 * releases the lock if the method has returned by then), and an asynchronous method's lock where its stage
 * completes. A loss is told on the engine's store-call
 * executor, after the lock's {@code whenLost()} callbacks, never on the renewal scheduler (a listener that
 * blocks holds up only that one notification).
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
