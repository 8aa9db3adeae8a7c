package dev.baton.impl.schedule;

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
}
