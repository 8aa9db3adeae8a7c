package dev.baton.impl.schedule;

import dev.baton.LockStoreException;
import dev.baton.event.ScheduleSkipped;
import dev.baton.event.ScheduleSkipped.Reason;
import dev.baton.impl.engine.Attempt;
import dev.baton.impl.engine.CurrentLocks;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.logging.BatonLog;
import dev.baton.spi.KeyFormat;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The rule of one firing of an exclusive schedule. Two keys, each tried once, without waiting:
 * <ol>
 * <li>the <b>run lock</b>, the schedule's key: held while a run runs, so two runs of one schedule never
 * overlap (a firing that finds it held skips: {@link Reason#HELD_ELSEWHERE}); released when the run ends, or
 * kept until the firing plus the hold where a hold is set;</li>
 * <li>the <b>claim</b> of the planned time ({@link PlannedTime#claimKey}, {@code <key>@<epoch ms>}), taken
 * second with the retention as its lease: the first instance to claim a planned time runs it; a later
 * firing of the same planned time, however late within the retention, finds it held and skips
 * ({@link Reason#PLANNED_TIME_CLAIMED}, after giving the run lock back). The claim is left held until the
 * retention has passed since the claim ({@link HeldLock#keepUntil}), never renewed past it nor released: at
 * once (before the run), or, with {@code retryFailed}, after the run (renewed while it runs), when a run
 * that threw releases it instead.</li>
 * </ol>
 * A firing whose planned time cannot be known (a direct call of a timeout method) takes the run lock only.
 * If the lock cannot be asked for at all, the firing skips. Nothing here throws into the scheduler but the
 * work's own exception.
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
     * Runs one firing, by the system's wall clock.
     *
     * @param plan the method's plan
     * @param timer what the container gave as the firing's timer ({@code InvocationContext.getTimer()}), or null
     * @param engines the engines
     * @param skips told of a skip
     * @param logKeys how log lines write keys ({@code baton.log.keys})
     * @param work the method
     * @return the method's result, or null when skipped
     * @throws Exception what the method threw
     */
    public static Object fire(
            SchedulePlan plan, Object timer, Engines engines, Skips skips, KeyFormat logKeys, Work work)
            throws Exception {
        return fire(plan, timer, engines, skips, logKeys, work, Clock.systemUTC());
    }

    /**
     * Runs one firing.
     *
     * @param plan the method's plan
     * @param timer what the container gave as the firing's timer ({@code InvocationContext.getTimer()}), or null
     * @param engines the engines
     * @param skips told of a skip
     * @param logKeys how log lines write keys ({@code baton.log.keys})
     * @param work the method
     * @param wallClock this instance's wall clock, which places the firing among the planned times
     * @return the method's result, or null when skipped
     * @throws Exception what the method threw
     */
    public static Object fire(
            SchedulePlan plan,
            Object timer,
            Engines engines,
            Skips skips,
            KeyFormat logKeys,
            Work work,
            Clock wallClock)
            throws Exception {
        Instant firedAt = wallClock.instant();
        LockEngine engine;
        long firedNanos;
        Attempt attempt;
        try {
            engine = engines.engine(plan.manager());
            firedNanos = engine.time().nanoTime();
            try {
                attempt = engine.tryOnce(plan.key(), engine.settings().ttlMillis());
            } catch (LockStoreException e) {
                return skip(plan, plan.key(), firedAt, Reason.STORE_FAILED, OptionalLong.empty(), e, skips, logKeys);
            }
        } catch (RuntimeException e) {
            return skip(plan, plan.key(), firedAt, Reason.MANAGER_UNAVAILABLE, OptionalLong.empty(), e, skips, logKeys);
        }
        if (!attempt.acquired()) {
            return skip(
                    plan,
                    plan.key(),
                    firedAt,
                    Reason.HELD_ELSEWHERE,
                    attempt.remainingLeaseMillis(),
                    null,
                    skips,
                    logKeys);
        }
        HeldLock runLock = attempt.lock();
        Optional<PlannedTime> planned = plan.plannedTime(timer, firedAt);
        HeldLock claim = null;
        long claimEndNanos = 0;
        if (planned.isPresent()) {
            String claimKey = planned.get().claimKey(plan.key());
            long retention = plan.retentionFor(planned.get());
            Attempt claimed;
            try {
                long claimedNanos = engine.time().nanoTime();
                claimed = engine.tryOnce(claimKey, retention);
                claimEndNanos = claimedNanos + TimeUnit.MILLISECONDS.toNanos(retention);
            } catch (RuntimeException e) {
                end(runLock, 0, 0);
                Reason reason = e instanceof LockStoreException ? Reason.STORE_FAILED : Reason.MANAGER_UNAVAILABLE;
                return skip(plan, claimKey, firedAt, reason, OptionalLong.empty(), e, skips, logKeys);
            }
            if (!claimed.acquired()) {
                end(runLock, 0, 0); // not ours to run: the next planned firing must find the run lock free
                return skip(
                        plan,
                        claimKey,
                        firedAt,
                        Reason.PLANNED_TIME_CLAIMED,
                        claimed.remainingLeaseMillis(),
                        null,
                        skips,
                        logKeys);
            }
            if (plan.retryFailed()) {
                claim = claimed.lock(); // renewed while the run runs: a failed run gives it back
                claim.unbindThread(); // the run lock is the run's: only its loss may interrupt the run
            } else {
                // whatever the run does, the planned time counts as done: kept from now on, never renewed
                endClaim(claimed.lock(), claimEndNanos, false);
            }
        }
        CurrentLocks.push(runLock);
        boolean failed = true;
        try {
            Object result = work.proceed();
            failed = false;
            return result;
        } finally {
            CurrentLocks.pop(runLock);
            if (claim != null) {
                // the claim first: a firing of this planned time that finds the run lock free finds it claimed
                endClaim(claim, claimEndNanos, failed && plan.retryFailed());
            }
            // Read after the run: the next planned firing is the same, and the timer is still valid here.
            long hold = plan.holdFor(plan.intervalMillis(timer, firedAt));
            end(runLock, firedNanos + TimeUnit.MILLISECONDS.toNanos(hold), hold);
        }
    }

    /** Keeps the claim until its retention has passed, or gives the planned time back for a retry. */
    private static void endClaim(HeldLock claim, long untilNanos, boolean giveBack) {
        try {
            if (giveBack) {
                claim.release();
            } else {
                claim.keepUntil(untilNanos); // a run that outlasted the retention releases it now
            }
        } catch (RuntimeException e) {
            BatonLog.releaseFailed(claim.logKeys(), claim.key(), e); // it expires by itself
        }
    }

    /** Keeps the run lock until the hold has passed since the firing; without a hold, or past it, releases it now. */
    private static void end(HeldLock lock, long holdEndNanos, long holdMillis) {
        try {
            if (holdMillis > 0) {
                lock.keepUntil(holdEndNanos);
            } else {
                lock.release();
            }
        } catch (RuntimeException e) {
            BatonLog.releaseFailed(lock.logKeys(), lock.key(), e); // it expires by itself
        }
    }

    private static Object skip(
            SchedulePlan plan,
            String lockKey,
            Instant firedAt,
            Reason reason,
            OptionalLong remaining,
            Throwable failure,
            Skips skips,
            KeyFormat logKeys) {
        if (reason == Reason.HELD_ELSEWHERE) {
            BatonLog.scheduleHeldElsewhere(plan.method(), logKeys, lockKey, remaining);
        } else if (reason == Reason.PLANNED_TIME_CLAIMED) {
            BatonLog.schedulePlannedTimeClaimed(plan.method(), logKeys, lockKey, remaining);
        } else {
            BatonLog.scheduleUnguarded(plan.method(), logKeys, lockKey, failure);
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
            BatonLog.listenerFailed("schedule skipped", logKeys, plan.key(), e);
        }
        return null;
    }
}
