package dev.baton;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a scheduled method in one instance of the application per planned time. Every instance of a
 * clustered application fires the same timer; with this binding each firing tries the schedule's lock
 * once, without waiting: the instance that gets it runs the method, the others skip the firing.
 *
 * <pre>{@code
 * @Singleton
 * public class Reports {
 *     @Exclusive
 *     @Schedule(hour = "2", persistent = false)          // jakarta.ejb.Schedule
 *     void nightly() { ... }
 * }
 *
 * @ApplicationScoped
 * public class Cleanup {
 *     @Exclusive(period = "5m")                           // called every 5 minutes by any scheduler
 *     public void purge() { ... }
 *
 *     @Exclusive                                          // Jakarta Concurrency 3.1 (Jakarta EE 11)
 *     @Asynchronous(runAt = @Schedule(cron = "0 *&#47;15 * * * *"))
 *     public CompletableFuture<Void> refresh() { ...; return null; }   // null: the schedule goes on
 * }
 * }</pre>
 *
 * <h2>Semantics</h2>
 * The unit of exclusion is the <b>planned firing</b>: every instance names it the same way (below), and the
 * first instance to <b>claim</b> it in the lock store runs it.
 * <ul>
 * <li>A firing first tries the schedule's <b>run lock</b> (its key) once, without waiting; then the
 * <b>claim</b> of its planned time, the key {@code <key>@<planned time in epoch milliseconds>} (e.g.
 * {@code schedule:com.acme.Reports.nightly@1767229200000}), with the {@link #retention()} as its lease.
 * With both it runs the method; the run lock is released when the run ends.</li>
 * <li>A firing that finds the claim taken <b>skips</b>, however late or early its timer fired for that
 * planned time, as long as the claim is kept; one that finds the run lock held (a run of this schedule is
 * still in progress, e.g. the previous planned time's run outlasted the period) skips too, so two runs of one
 * schedule never overlap. A skip calls nothing and returns normally ({@code null}; no exception reaches the
 * container, so it neither logs an error nor retries the timer), logs a DEBUG line and fires a
 * {@link dev.baton.event.ScheduleSkipped} event whose reason tells which case it was
 * ({@code PLANNED_TIME_CLAIMED} or {@code HELD_ELSEWHERE}).</li>
 * <li>The claim is <b>kept until the retention has passed</b> since it was taken, then expires in the store
 * by itself: it is neither released nor renewed past it. A run that throws keeps its claim too (the planned
 * time counts as done) and its exception propagates; with {@link #retryFailed()} it releases the claim, so a
 * later firing of the same planned time (another instance's) may run it again.</li>
 * <li>A {@link #hold()}, where one is set, also keeps the run lock held until the hold has passed since the
 * firing: no firing at all, of any planned time, runs within it.</li>
 * <li>When the lock store fails or the lock manager cannot be used, the firing is skipped and logged at
 * ERROR with the key: the method never runs unguarded.</li>
 * </ul>
 *
 * <h2>How a planned firing is named</h2>
 * For an EJB timeout method ({@code @Schedule}, {@code @Schedules}, {@code @Timeout}) on a calendar timer, by
 * the timer's {@code getNextTimeout()} during the firing: the next planned time, the same on every instance,
 * names the firing before it. For a Jakarta Concurrency 3.1 method
 * ({@code @Asynchronous(runAt = @Schedule(...))}, Jakarta EE 11), by the next run time after the firing, computed by the API's own
 * {@code CronTrigger}. For any other method, and for an EJB interval timer, by the {@link #period()} aligned on
 * the epoch (UTC) that the firing's wall-clock time falls in, {@code floor(firedAt / period) * period} (an
 * interval timer without a period: its interval, to the next timeout rounded to whole seconds); such a
 * scheduler should fire well inside a period, not on its edges, as instances' clocks differ. A firing whose
 * planned time cannot be known (a direct call of a timeout method without a period, the last firing of a
 * timer) takes the run lock only.
 *
 * <p>A method whose period cannot be known, a hold not shorter than the period, a retention that is not a
 * positive duration, a method with parameters no scheduler can supply (none, or one {@code jakarta.ejb.Timer}),
 * or with a primitive return type (a skipped firing returns {@code null}) fails the deployment with a message
 * naming the class, the method and the value. The binding belongs on each scheduled method (one schedule, one
 * key); on a class it fails the deployment.
 *
 * <h2>Configuration overrides</h2>
 * Each member can be overridden in the MicroProfile Fault Tolerance style:
 * {@code <fully.qualified.Class>/<method>/Exclusive/<member>}, then
 * {@code <fully.qualified.Class>/Exclusive/<member>}, then {@code Exclusive/<member>}; for example
 * {@code com.acme.Reports/nightly/Exclusive/retention=1h}. {@code baton.exclusive.retention} and
 * {@code baton.exclusive.hold} set the retention and the hold of every method whose annotation does not. The interceptor runs at {@link #DEFAULT_PRIORITY}, just outside
 * {@link Synchronized}'s; {@code baton.exclusive.priority} changes it.
 */
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Exclusive {

    /** The default priority of the interceptor: {@code PLATFORM_AFTER + 890} (4890), just outside {@link Synchronized}. */
    int DEFAULT_PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 890;

    /** What a key starts with when none is given: {@code schedule:}. */
    String KEY_PREFIX = "schedule:";

    /**
     * The lock key of the schedule, used as given. Empty: {@code schedule:} followed by the fully
     * qualified name of the declaring class, a dot and the method name, e.g.
     * {@code schedule:com.acme.Reports.nightly}.
     *
     * @return the key
     */
    @Nonbinding
    String value() default "";

    /**
     * The named lock manager to use, declared in {@code baton.managers}. Empty: the default manager.
     *
     * @return the manager name
     */
    @Nonbinding
    String manager() default "";

    /**
     * How long after the firing the run lock stays held when the run ended sooner, as a duration ({@code 10s},
     * {@code PT10S}): no other firing runs within it. Empty: {@code baton.exclusive.hold} if set, else none (the
     * claim of the planned time keeps it from running twice). It must be shorter than the period; at a
     * firing it never reaches past the next planned firing the container reports.
     *
     * @return the hold as a duration string
     */
    @Nonbinding
    String hold() default "";

    /**
     * How long the claim of a planned firing is kept, from when it is taken, as a duration ({@code 15m},
     * {@code PT15M}): a firing of the same planned time within it skips, however late it comes. Empty:
     * {@code baton.exclusive.retention} if set, else three intervals to the next planned firing, at least
     * 1 minute: instances' clocks and timers differ by far less, and a firing later than that has lost its
     * meaning. Longer costs only a key per planned time kept longer in the store.
     *
     * @return the retention as a duration string
     */
    @Nonbinding
    String retention() default "";

    /**
     * Whether a run that throws gives its planned time back. {@code false}: its claim stays until the
     * retention ends (the planned time counts as done; the exception propagates). {@code true}: the claim is
     * released, so a later firing of the same planned time (another instance's timer) may run it again.
     *
     * @return whether a failed run may be retried elsewhere
     */
    @Nonbinding
    boolean retryFailed() default false;

    /**
     * The time between planned firings, for a method no container schedule describes (called by any
     * scheduler), as a duration ({@code 5m}): its planned firings are the periods aligned on the epoch (UTC).
     * Ignored for an EJB calendar timer, whose next timeout names the firing; for an EJB interval timer, the
     * period of its firings.
     *
     * @return the period as a duration string
     */
    @Nonbinding
    String period() default "";
}
