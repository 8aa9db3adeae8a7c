/**
 * Exclusive schedules on a real server ({@link dev.baton.tck.runtime.schedule.ExclusiveScheduleScenario}):
 * an EJB {@code @Schedule} method (tag {@code ejb}) and a Jakarta Concurrency 3.1
 * {@code @Asynchronous(runAt = @Schedule(...))} method (tag {@code ee11}) with {@code @Exclusive} fire,
 * run once per planned time holding the schedule's lock (counted by the application per planned time,
 * never inferred from how long the test waited), and while the schedule's key is held elsewhere (the test
 * takes it through the application's {@code Locks}) every firing is skipped: a {@code ScheduleSkipped}
 * event, no run, no exception into the scheduler; given back, the schedule runs again. A planned time whose
 * claim ({@code <key>@<epoch ms>}) the test holds, as an instance that ran it would, is skipped too.
 */
package dev.baton.tck.runtime.schedule;
