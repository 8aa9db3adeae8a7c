package dev.baton.event;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Fired (synchronously and asynchronously) when a firing of an {@link dev.baton.Exclusive} method was
 * skipped: the method did not run in this instance for this firing.
 *
 * @param manager the lock manager's name, empty for the default
 * @param key the schedule's key, without the manager's prefix
 * @param method the method, as {@code com.acme.Reports.nightly}
 * @param firedAt when this instance's firing began, by its wall clock
 * @param remainingLease how long the holder's lease still runs, when the store reported it (reasons
 *     {@link Reason#HELD_ELSEWHERE}: the run lock's; {@link Reason#PLANNED_TIME_CLAIMED}: the claim's)
 * @param reason why the firing was skipped
 * @param failure what failed, for {@link Reason#STORE_FAILED} and {@link Reason#MANAGER_UNAVAILABLE}
 */
public record ScheduleSkipped(
        String manager,
        String key,
        String method,
        Instant firedAt,
        Optional<Duration> remainingLease,
        Reason reason,
        Optional<Throwable> failure) {

    /** Why a firing was skipped. */
    public enum Reason {
        /**
         * The schedule's run lock (its key) is held: a run of this schedule is in progress (another instance, or
         * this one; e.g. the previous planned time's run outlasted the period), or is kept for its hold.
         */
        HELD_ELSEWHERE,
        /** The lock store failed: the method was not run, rather than run unguarded. */
        STORE_FAILED,
        /** The lock manager could not be used (it has no store, or it is shut down). */
        MANAGER_UNAVAILABLE,
        /**
         * This planned firing was claimed already (another instance, or this one, ran or runs it; within the
         * retention): the expected case of instances whose timers fire the same planned time at different moments.
         */
        PLANNED_TIME_CLAIMED
    }

    /**
     * Checks the components.
     *
     * @param manager the lock manager's name, empty for the default
     * @param key the schedule's key, without the manager's prefix
     * @param method the method, as {@code com.acme.Reports.nightly}
     * @param firedAt when this instance's firing began
     * @param remainingLease how long the holder's lease still runs, when known
     * @param reason why the firing was skipped
     * @param failure what failed, when something did
     * @throws NullPointerException if a component is null
     */
    public ScheduleSkipped {
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(firedAt, "firedAt");
        Objects.requireNonNull(remainingLease, "remainingLease");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(failure, "failure");
    }
}
