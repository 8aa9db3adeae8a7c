package dev.baton;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;

/**
 * A held distributed lock. Obtained from {@link Locks}; released by {@link #close()} (so a
 * try-with-resources block releases it), or by the {@link Synchronized} interceptor.
 *
 * <p>While held, the runtime renews the lease in the background. If renewal fails until the lease is
 * over, or the store says another owner has the key, the lock is <em>lost</em>: {@link #isHeld()}
 * turns false, {@link #whenLost()} completes, and a {@link dev.baton.event.LockLost} event fires. The
 * work is not interrupted (unless {@code baton.interrupt-on-loss} is set); long-running work should
 * call {@link #checkHeld()} at safe points, and hand {@link #fencingToken()} to the resources it
 * writes.
 *
 * <p>Instances are thread-safe: the lock may be released from another thread than the one that took
 * it.
 */
public interface Lock extends AutoCloseable {

    /**
     * The key, as the application named it (without the manager's prefix).
     *
     * @return the key
     */
    String key();

    /**
     * The fencing token of this acquisition: greater than every token earlier acquisitions of the same
     * key received from the same store. A resource that remembers the highest token it has seen and
     * rejects lower ones is safe against a holder that paused past its lease.
     *
     * @return a positive token
     */
    long fencingToken();

    /**
     * Whether this lock is still held: not released, not lost, and its lease not over by the local
     * monotonic clock.
     *
     * @return true while held
     */
    boolean isHeld();

    /**
     * When the current lease ends if it is not renewed, estimated with the local clock from the moment
     * the last successful acquisition or renewal was sent.
     *
     * @return the estimated end of the lease
     */
    Instant validUntil();

    /**
     * Sets this lock's lease to {@code ttl} from now, in the store, and keeps it there: the renewals that
     * follow renew it by {@code ttl} (every third of it) instead of the ttl it was taken with. For work
     * that turns out to need a longer lease than configured, so that the lock outlives a pause of this
     * process that long (a shorter {@code ttl} shortens the lease the same way). Validated like any ttl:
     * at least 1 ms, at most 365 days, whole milliseconds.
     *
     * @param ttl the new lease
     * @throws IllegalArgumentException if the ttl is out of range
     * @throws LockLostException if the lock is not held (released, lost, or the store says another owner
     *     has it: then it is lost, as at a renewal)
     * @throws LockStoreException if the store failed; the lock keeps its previous lease and renewals
     */
    void extend(Duration ttl);

    /**
     * Completes, with the reason, when the lock is lost. It does not complete when the lock is released
     * normally.
     *
     * @return a stage completed with the loss reason
     */
    CompletionStage<LockLostException> whenLost();

    /**
     * Throws if the lock is no longer held.
     *
     * @throws LockLostException if the lock was lost, released, or its lease is over
     */
    void checkHeld();

    /**
     * Releases the lock. Idempotent: later calls do nothing and return false. Called while a JTA
     * transaction is active on the thread (or for a lock taken in one that has not completed yet), the
     * lock is gone for its holder at once but stays in the store until the transaction has completed
     * (see {@link Locks}); the result then says whether the lock was still held.
     *
     * @return true if this call released a lock that was still held in the store
     * @throws LockStoreException if the store failed; the lock is then given up locally anyway and
     *     expires in the store within its ttl
     */
    boolean release();

    /**
     * Releases the lock, like {@link #release()}, but never throws: a store failure is logged (the lease
     * expires by itself within its ttl).
     */
    @Override
    void close();
}
