package dev.baton.impl.schedule;

import jakarta.ejb.NoMoreTimeoutsException;
import jakarta.ejb.Timer;

/** Reads EJB timers. Only loaded where {@code jakarta.ejb} is present (see {@link ContainerTimers}). */
final class EjbTimers {

    private EjbTimers() {}

    static long intervalMillis(Object timer, long firedAtMillis) {
        if (!(timer instanceof Timer ejbTimer)) {
            return Intervals.UNKNOWN;
        }
        try {
            return Math.max(1, ejbTimer.getNextTimeout().getTime() - firedAtMillis);
        } catch (NoMoreTimeoutsException e) {
            return Intervals.NO_NEXT;
        } catch (RuntimeException e) {
            // e.g. the timer was cancelled meanwhile: the period is not known for this firing
            return Intervals.UNKNOWN;
        }
    }

    static PlannedTime plannedTime(Object timer, long firedAtMillis, long periodMillis) {
        if (!(timer instanceof Timer ejbTimer)) {
            return null;
        }
        try {
            long next = ejbTimer.getNextTimeout().getTime();
            long interval = Math.max(1, next - firedAtMillis);
            if (ejbTimer.isCalendarTimer()) {
                // every instance's calendar timer reports the same next timeout: it names the current firing
                return new PlannedTime(next, interval);
            }
            // An interval timer's start differs per instance: buckets of its interval, aligned on the epoch.
            // The interval is not in the API: the period if given, else the time to the next timeout rounded
            // to whole seconds (the firing's own delay taken off).
            long bucket = periodMillis > 0 ? periodMillis : Math.max(1_000, Math.round(interval / 1_000.0) * 1_000);
            return PlannedTime.bucket(firedAtMillis, bucket);
        } catch (NoMoreTimeoutsException e) {
            return null; // the last firing: no next one to name it by
        } catch (RuntimeException e) {
            return null; // e.g. the timer was cancelled meanwhile
        }
    }
}
