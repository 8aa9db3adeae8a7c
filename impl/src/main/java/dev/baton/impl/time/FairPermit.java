package dev.baton.impl.time;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * One permit, handed to waiting threads in arrival order, and given back by any thread (not only the one that
 * took it). It is what a fair {@link java.util.concurrent.Semaphore} of one permit does, in one object instead
 * of two (a semaphore holds its synchronizer in a second object): subclasses add their own fields to it, and a
 * program that keeps one per key in use saves that second object per key.
 *
 * <p>Giving the permit back when it is not taken leaves one permit, never two.
 *
 * <p>Taking it without waiting ({@link #tryTake()}, {@link #tryTake(long)} with nobody queued), giving it back and
 * {@link #isFree()} are linearizable to one permit taken and given atomically. A take in turn is not: it may fail
 * while the permit is free, when a queued thread is about to take it. What holds with waiting threads is one holder
 * at a time and no waiter left waiting for a free permit, also while waiters give up (a time-out or an interrupt:
 * both leave the queue the same way), all model-checked: {@code FairPermitLincheckTest},
 * {@code FairPermitWaitingLincheckTest}, {@code FairPermitGivingUpLincheckTest}.
 */
public abstract class FairPermit extends AbstractQueuedSynchronizer {

    private static final long serialVersionUID = 1L;

    /** A new permit, free. */
    protected FairPermit() {
        setState(1);
    }

    /**
     * Takes the permit if it is free now, even if other threads wait for it (as {@link
     * java.util.concurrent.Semaphore#tryAcquire()} does on a fair semaphore).
     *
     * @return true if taken
     */
    public final boolean tryTake() {
        return compareAndSetState(1, 0);
    }

    /**
     * Takes the permit in turn: after the threads that waited for it first, waiting up to {@code timeoutNanos}.
     *
     * @param timeoutNanos the longest wait
     * @return true if taken
     * @throws InterruptedException if interrupted while waiting
     */
    public final boolean tryTake(long timeoutNanos) throws InterruptedException {
        return tryAcquireNanos(1, timeoutNanos);
    }

    /**
     * {@link #tryTake(long)} in a unit.
     *
     * @param timeout the longest wait
     * @param unit its unit
     * @return true if taken
     * @throws InterruptedException if interrupted while waiting
     */
    public final boolean tryTake(long timeout, TimeUnit unit) throws InterruptedException {
        return tryTake(unit.toNanos(timeout));
    }

    /** Gives the permit back; the longest waiting thread, if any, takes it. */
    public final void give() {
        release(1);
    }

    /** @return whether the permit is free now */
    public final boolean isFree() {
        return getState() == 1;
    }

    /**
     * Whether the permit's holder passed it straight to the calling thread, which waits for it: the permit then
     * stays taken from one holder to the next, and no other thread can take it in between. None here.
     *
     * @return true if the calling thread now holds the permit, passed to it
     */
    protected boolean passedToCaller() {
        return false;
    }

    @Override
    protected final boolean tryAcquire(int ignored) {
        return (!hasQueuedPredecessors() && compareAndSetState(1, 0)) || passedToCaller();
    }

    @Override
    protected final boolean tryRelease(int ignored) {
        setState(1);
        return true;
    }
}
