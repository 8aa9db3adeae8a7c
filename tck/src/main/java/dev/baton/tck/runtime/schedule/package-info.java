/**
 * Exclusive schedules on a real server: an EJB {@code @Schedule} method with {@code @Exclusive} fires,
 * runs once per planned time (counted by the application per planned time, taken from the timer, never
 * inferred from the wall clock), and while the schedule's key is held elsewhere (the test takes it
 * through the application's {@code Locks}) every firing is skipped: a {@code ScheduleSkipped} event,
 * no run, no exception into the container; given back, the schedule runs again.
 */
package dev.baton.tck.runtime.schedule;
