package dev.baton.impl.time;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The time a lock engine keeps: its monotonic clock, its timers (renewals, lease watchdogs) and its timed
 * waits (poll pauses, the local queue of a key). Production runs on {@link System#nanoTime()} and a
 * {@link ScheduledExecutorService} ({@link #system}); tests pass a virtual time they advance by hand, so
 * renewal and waiting schedules are exact and take no real time. Store calls are not timed here: they
 * block on real I/O.
 */
public interface EngineTime {

    /**
     * @return now, in nanoseconds, like {@link System#nanoTime()}: only differences mean anything
     */
    long nanoTime();

    /**
     * Runs {@code task} once, {@code delayNanos} from now (at once if not positive). Tasks must be short:
     * they keep time for every lock of the engine.
     *
     * @param task what to run
     * @param delayNanos how long from now
     * @return a handle that cancels the task if it has not started
     * @throws RejectedExecutionException if the timer is shut down
     */
    Scheduled schedule(Runnable task, long delayNanos);

    /**
     * Parks the calling thread for up to {@code nanos}, as {@link java.util.concurrent.locks.LockSupport#parkNanos(Object,
     * long)} does: it may return earlier (an unpark, an interrupt, spuriously), so the caller checks again.
     *
     * @param blocker what the thread waits for (seen in thread dumps)
     * @param nanos the longest pause
     */
    void park(Object blocker, long nanos);

    /**
     * Takes {@code permit}, waiting up to {@code timeoutNanos} in turn (if not positive: only if it is free now).
     *
     * @param permit the permit
     * @param timeoutNanos the longest wait
     * @return true if taken
     * @throws InterruptedException if interrupted while waiting
     */
    boolean tryAcquire(FairPermit permit, long timeoutNanos) throws InterruptedException;

    /**
     * @param scheduler runs the timers; not shut down by this time
     * @return real time: {@link System#nanoTime()}, timers on {@code scheduler}
     */
    static EngineTime system(ScheduledExecutorService scheduler) {
        return new SystemTime(scheduler);
    }

    /** A task planned with {@link #schedule}. */
    @FunctionalInterface
    interface Scheduled {

        /** Cancels the task if it has not started; does not interrupt it if it has. */
        void cancel();
    }
}
