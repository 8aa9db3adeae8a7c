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
}
