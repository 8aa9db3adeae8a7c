package dev.baton.impl.schedule;

import dev.baton.LockStoreException;
import dev.baton.event.ScheduleSkipped;
import dev.baton.event.ScheduleSkipped.Reason;
import dev.baton.impl.engine.Attempt;
import dev.baton.impl.engine.CurrentLocks;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.logging.BatonLog;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The rule of one firing of an exclusive schedule: try the key once, without waiting; if another holder
 * has it, or the lock cannot be asked for at all, skip (return null, log, tell); else run the work, and
 * afterwards leave the lock held until the hold has passed since the firing ({@link HeldLock#keepUntil}),
 * or release it if the run outlasted the hold. Nothing here throws into the scheduler but the work's own
 * exception.
 */
public final class ScheduledFiring {

    /** The work of the firing: the intercepted method. */
    @FunctionalInterface
    public interface Work {
        Object proceed() throws Exception;
    }

    /** Where the engine of a manager comes from; may fail (no store, shut down). */
    @FunctionalInterface
    public interface Engines {
        LockEngine engine(String manager);
    }

    /** Told of every skipped firing. */
    @FunctionalInterface
    public interface Skips {
        void skipped(ScheduleSkipped event);
    }

    private ScheduledFiring() {}

    /**
     * Runs one firing.
     *
     * @param plan the method's plan
     * @param timer what the container gave as the firing's timer ({@code InvocationContext.getTimer()}), or null
     * @param engines the engines
     * @param skips told of a skip
     * @param work the method
     * @return the method's result, or null when skipped
     * @throws Exception what the method threw
     */
    public static Object fire(SchedulePlan plan, Object timer, Engines engines, Skips skips, Work work)
            throws Exception {
        long firedNanos = System.nanoTime();
        Instant firedAt = Instant.now();
        Attempt attempt;
        try {
            LockEngine engine = engines.engine(plan.manager());
            try {
                attempt = engine.tryOnce(plan.key(), engine.settings().ttlMillis());
            } catch (LockStoreException e) {
                return skip(plan, firedAt, Reason.STORE_FAILED, OptionalLong.empty(), e, skips);
            }
        } catch (RuntimeException e) {
            return skip(plan, firedAt, Reason.MANAGER_UNAVAILABLE, OptionalLong.empty(), e, skips);
        }
        if (!attempt.acquired()) {
            return skip(plan, firedAt, Reason.HELD_ELSEWHERE, attempt.remainingLeaseMillis(), null, skips);
        }
        HeldLock lock = attempt.lock();
        CurrentLocks.push(lock);
        try {
            return work.proceed();
        } finally {
            CurrentLocks.pop(lock);
            // Read after the run: the next planned firing is the same, and the timer is still valid here.
            long hold = plan.holdFor(plan.intervalMillis(timer, firedAt));
            end(lock, firedNanos + TimeUnit.MILLISECONDS.toNanos(hold), hold);
        }
    }

    /** Keeps the lock until the hold has passed since the firing; a run that outlasted it releases now. */
    private static void end(HeldLock lock, long holdEndNanos, long holdMillis) {
        try {
            if (holdMillis > 0) {
                lock.keepUntil(holdEndNanos);
            } else {
                lock.release();
            }
        } catch (RuntimeException e) {
            BatonLog.releaseFailed(lock.key(), e); // it expires by itself
        }
    }

    private static Object skip(
            SchedulePlan plan, Instant firedAt, Reason reason, OptionalLong remaining, Throwable failure, Skips skips) {
        if (reason == Reason.HELD_ELSEWHERE) {
            BatonLog.scheduleHeldElsewhere(plan.method(), plan.key(), remaining);
        } else {
            BatonLog.scheduleUnguarded(plan.method(), plan.key(), failure);
        }
        try {
            skips.skipped(new ScheduleSkipped(
                    plan.manager(),
                    plan.key(),
                    plan.method(),
                    firedAt,
                    remaining.isPresent() ? Optional.of(Duration.ofMillis(remaining.getAsLong())) : Optional.empty(),
                    reason,
                    Optional.ofNullable(failure)));
        } catch (RuntimeException e) {
            BatonLog.listenerFailed("schedule skipped " + plan.key(), e);
        }
        return null;
    }
}
