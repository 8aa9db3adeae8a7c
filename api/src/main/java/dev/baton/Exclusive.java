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
 * <ul>
 * <li>A firing that does not get the lock (another instance runs or ran this planned time) <b>skips</b>:
 * the method is not called, the call returns normally ({@code null}; no exception reaches the container,
 * so it neither logs an error nor retries the timer), a DEBUG line is logged and a
 * {@link dev.baton.event.ScheduleSkipped} event is fired.</li>
 * <li>After a run the lock <b>stays held until {@link #hold()} has passed since the firing</b>, then
 * expires by itself (it is neither released earlier nor renewed past it), so an instance whose timer fires
 * a little later for the same planned time (its clock is behind, or it was busy) finds it held and skips,
 * while the next planned firing finds it free. A run longer than the hold keeps its lock renewed like any
 * lock and releases it when it ends. A run that throws follows the same rule; its exception propagates.</li>
 * <li>When the lock store fails or the lock manager cannot be used, the firing is skipped and logged at
 * ERROR with the key: the method never runs unguarded.</li>
 * </ul>
 *
 * <h2>Where the period comes from</h2>
 * The default hold is half the interval to the next planned firing, at most 30 s. For an EJB timeout
 * method ({@code @Schedule}, {@code @Schedules}, {@code @Timeout}) the interval is the timer's
 * {@code getNextTimeout()} at each firing; for a Jakarta Concurrency 3.1 method
 * ({@code @Asynchronous(runAt = @Schedule(...))}, Jakarta EE 11) it is the next run time of its
 * {@code @Schedule}s, computed by the API's own {@code CronTrigger}; for any other method it is {@link #period()}. A method whose
 * period cannot be known, a hold not shorter than the period, a method with parameters no scheduler can
 * supply (none, or one {@code jakarta.ejb.Timer}), or with a primitive return type (a skipped firing returns
 * {@code null}) fails the deployment with a message naming the class, the method and the value. The binding
 * belongs on each scheduled method (one schedule, one key); on a class it fails the deployment.
 *
 * <h2>Configuration overrides</h2>
 * Each member can be overridden in the MicroProfile Fault Tolerance style:
 * {@code <fully.qualified.Class>/<method>/Exclusive/<member>}, then
 * {@code <fully.qualified.Class>/Exclusive/<member>}, then {@code Exclusive/<member>}; for example
 * {@code com.acme.Reports/nightly/Exclusive/hold=10s}. {@code baton.exclusive.hold} sets the hold of every
 * method whose annotation does not. The interceptor runs at {@link #DEFAULT_PRIORITY}, just outside
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
     * How long after the firing the lock stays held when the run ended sooner, as a duration
     * ({@code 10s}, {@code PT10S}). Empty: {@code baton.exclusive.hold} if set, else half the interval to
     * the next planned firing, at most 30 s. It must be shorter than the period; at a firing it never
     * reaches past the next planned firing the container reports.
     *
     * @return the hold as a duration string
     */
    @Nonbinding
    String hold() default "";

    /**
     * The time between planned firings, for a method no container schedule describes (called by any
     * scheduler), as a duration ({@code 5m}). Ignored where the container reports the next firing (an
     * EJB timer).
     *
     * @return the period as a duration string
     */
    @Nonbinding
    String period() default "";
}
