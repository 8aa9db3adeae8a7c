package dev.baton.impl.schedule;

import dev.baton.LockConfigurationException;
import java.lang.annotation.Annotation;

/**
 * How a scheduler's own annotation names its firings: by a period (aligned on the epoch), by a calendar, or not at
 * all (the schedule is turned off).
 *
 * @param periodMillis the period, or 0
 * @param source the annotation member and value it comes from, for messages
 * @param calendar the calendar, or null
 */
record SchedulerTiming(long periodMillis, String source, ScheduleCalendar calendar) {

    /** @return whether the scheduler never fires the method */
    boolean off() {
        return periodMillis == 0 && calendar == null;
    }

    /**
     * A member of a scheduler's annotation, read by name (Baton compiles against no scheduler).
     *
     * @throws LockConfigurationException when this version of the annotation has no such member
     */
    static Object member(Annotation annotation, String name) {
        try {
            return annotation.annotationType().getMethod(name).invoke(annotation);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new LockConfigurationException(
                    "this " + annotation.annotationType().getName() + " has no member " + name + "() (" + e
                            + "); set a period, e.g. @Exclusive(period = \"5m\")");
        }
    }
}
