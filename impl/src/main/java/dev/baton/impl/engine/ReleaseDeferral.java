package dev.baton.impl.engine;

/**
 * Ties a lock of the programmatic API ({@link EngineLocks}) to a unit of work of the calling thread that
 * must complete before the lock may leave the store, such as a JTA transaction: the next holder must see
 * what the unit of work wrote. The engine knows of no such unit; the layer above it (CDI with JTA)
 * supplies one.
 */
@FunctionalInterface
public interface ReleaseDeferral {

    /** No unit of work: a lock leaves the store when its holder releases it. */
    ReleaseDeferral NONE = (lock, completed) -> false;

    /**
     * If the calling thread runs in a unit of work that must complete before {@code lock} may be released
     * in the store, arranges for {@code completed} to run once that unit has completed (outside it: JTA runs it
     * on a store-call thread, whichever thread completes the transaction, and that thread waits for it) and, until then, for the unit to be unable to complete successfully once the lock is
     * lost (a JTA transaction is marked rollback-only before it commits).
     *
     * @param lock the lock
     * @param completed what to run once the unit of work has completed; run at most once
     * @return true if {@code completed} will run; false if the thread runs in no such unit of work
     */
    boolean awaitCompletion(HeldLock lock, Runnable completed);
}
