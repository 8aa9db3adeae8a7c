package dev.baton;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method (or every business method of the annotated class) under a
 * distributed lock: across every instance of the application, at most one invocation with the
 * same key runs at a time.
 *
 * <pre>{@code
 * @Synchronized("order:{id}")
 * public void pay(long id) { ... }
 *
 * @Synchronized(value = "order:{order.customer.id}", timeout = "2s")
 * public Receipt pay(Order order) { ... }
 *
 * @Synchronized(value = "search:reindex", await = false)   // fails at once while another holds it
 * public void reindex() { ... }
 *
 * @Synchronized(value = "export", permits = 3)              // at most three exports at once, cluster-wide
 * public Report export(long customer) { ... }
 *
 * @Synchronized(value = "catalog", type = LockType.READ)    // readers together, a writer alone
 * public Catalog catalog() { ... }
 * }</pre>
 *
 * <h2>Key templates</h2>
 * {@link #value()} is a template: {@code {name}} is replaced by the parameter of that name (compile
 * with {@code -parameters}), {@code {0}} by the first parameter, and dotted paths such as
 * {@code {order.customer.id}} walk getters ({@code getX()}/{@code isX()}), record components and public
 * fields. {@code {{} and {@code }}} stand for literal braces. An empty template uses the fully
 * qualified method name ({@code com.acme.Reports.build}) as the key. A {@link #resolver()} computes
 * the key instead. Every template is checked when the application deploys: a placeholder that
 * resolves to nothing fails the deployment with a message naming the class, method and placeholder.
 * At call time a placeholder whose value is {@code null} fails the call with an
 * {@link IllegalArgumentException}.
 *
 * <h2>Durations</h2>
 * {@link #timeout()} and {@link #ttl()} accept ISO-8601 ({@code PT30S}) and short forms
 * ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}); an empty value takes the lock
 * manager's configured default ({@code baton.timeout}, {@code baton.ttl}).
 *
 * <h2>Polling</h2>
 * While a caller waits for a lock another instance holds, it asks the store again after a pause: the first
 * pause is {@link #pollMinInterval()}, each next one twice as long up to {@link #pollMaxInterval()}, and a
 * random part of up to {@link #pollJitter()} of each pause is taken off, so waiters do not ask in step. A
 * release in this JVM, or one the store notifies, wakes the waiter at once; polling is the safety net. Empty
 * values take the manager's ({@code baton.poll-min-interval}, {@code baton.poll-max-interval},
 * {@code baton.poll-jitter}: 5 ms, 500 ms and 0.5 unless configured).
 *
 * <h2>Configuration overrides</h2>
 * Each member can be overridden with MicroProfile Config, in the MicroProfile Fault Tolerance style:
 * {@code <fully.qualified.Class>/<method>/Synchronized/<member>}, then
 * {@code <fully.qualified.Class>/Synchronized/<member>}, then {@code Synchronized/<member>}.
 *
 * <h2>Semantics</h2>
 * <ul>
 * <li>A call that does not get the lock within the timeout fails with {@link LockTimeoutException}
 * (HTTP 409 Conflict in JAX-RS).</li>
 * <li>Locks are <b>not reentrant</b>: a thread that calls a method needing a lock it already holds
 * fails at once with {@link LockAlreadyHeldException} instead of waiting for itself forever.</li>
 * <li>Inside a JTA transaction the lock is released after the transaction completes, so the next
 * holder reads committed data; if the lock is lost meanwhile, the transaction is marked
 * rollback-only.</li>
 * <li>A method returning a {@link java.util.concurrent.CompletionStage} holds the lock until the
 * stage completes.</li>
 * <li>The held lock is reachable inside the method through {@link Locks#current()}, for its fencing
 * token.</li>
 * </ul>
 * The interceptor runs at priority {@link #DEFAULT_PRIORITY} (after MicroProfile Fault Tolerance and
 * Bean Validation, so the lock is held as tightly as possible around the business method);
 * {@code baton.interceptor.priority} changes it.
 */
@Inherited
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Synchronized {

    /** The default priority of the interceptor: {@code PLATFORM_AFTER + 900} (4900). */
    int DEFAULT_PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 900;

    /**
     * The key template, for example {@code "order:{id}"}. Empty: the fully qualified method name.
     *
     * @return the key template
     */
    @Nonbinding
    String value() default "";

    /**
     * How long to wait for the lock, for example {@code "5s"}. Empty: the manager's default
     * ({@code baton.timeout}, 10 s unless configured). Ignored when {@link #await()} is false.
     *
     * @return the timeout as a duration string
     */
    @Nonbinding
    String timeout() default "";

    /**
     * Whether to wait for the lock. {@code false} fails at once with {@link LockTimeoutException}
     * when another holder has it. (Named {@code await} because {@code wait} is taken by
     * {@link Object#wait()}.)
     *
     * @return whether to wait
     */
    @Nonbinding
    boolean await() default true;

    /**
     * The lease of the lock: how long it stays held without renewal, for example {@code "1m"}. The
     * runtime renews it while the method runs, so this bounds how long a crashed holder blocks
     * others. Empty: the manager's default ({@code baton.ttl}, 30 s unless configured).
     *
     * @return the time-to-live as a duration string
     */
    @Nonbinding
    String ttl() default "";

    /**
     * The first pause between two polls of the store while waiting, for example {@code "10ms"}; the pauses
     * double from there up to {@link #pollMaxInterval()}. Empty: the manager's
     * ({@code baton.poll-min-interval}, 5 ms unless configured). Must not be longer than the maximum.
     *
     * @return the minimum poll interval as a duration string
     */
    @Nonbinding
    String pollMinInterval() default "";

    /**
     * The longest pause between two polls of the store while waiting, for example {@code "50ms"}: on a
     * store that does not notify releases, how late at most a waiter sees that the key is free. Empty: the
     * manager's ({@code baton.poll-max-interval}, 500 ms unless configured).
     *
     * @return the maximum poll interval as a duration string
     */
    @Nonbinding
    String pollMaxInterval() default "";

    /**
     * The largest fraction of each pause taken off at random, from {@code "0"} (every waiter polls on the
     * same schedule) to {@code "1"} (a pause anywhere from nothing to its full length), for example
     * {@code "0.25"}. Empty: the manager's ({@code baton.poll-jitter}, 0.5 unless configured).
     *
     * @return the jitter as a decimal fraction
     */
    @Nonbinding
    String pollJitter() default "";

    /**
     * How the key is held: {@link LockType#WRITE} (the default) alone, {@link LockType#READ} shared with other
     * readers, excluded by a writer. Read locks need a store that keeps shared leases (memory, JPA table mode,
     * Redis); on another store the deployment fails.
     *
     * @return read or write
     */
    @Nonbinding
    LockType type() default LockType.WRITE;

    /**
     * How many holders may run the method with the same key at once, across every instance: a cluster-wide
     * bulkhead ({@code @Synchronized(value = "export", permits = 3)}). Each holder has a lease and a fencing token
     * of its own; a crashed holder's permit is free again when its ttl runs out. With {@link #type()}
     * {@code READ} it bounds the readers. {@code 0} (the default): one writer, or any number of readers; {@code 1}
     * is a plain lock. Needs a store that keeps shared leases; see {@link LockOptions#withPermits(int)} for
     * changing the number of a key in use.
     *
     * @return the permits, from 0 to {@value LockOptions#MAX_PERMITS}
     */
    @Nonbinding
    int permits() default 0;

    /**
     * The named lock manager to use, declared in {@code baton.managers} and configured under
     * {@code baton.<name>.}. Empty: the default manager.
     *
     * @return the manager name
     */
    @Nonbinding
    String manager() default "";

    /**
     * A CDI bean that computes the key from the invocation, instead of the template. The default
     * ({@code LockKeyResolver.class} itself) means: use the template. Setting both a template and a
     * resolver is a deployment error.
     *
     * @return the resolver bean type
     */
    @Nonbinding
    Class<? extends LockKeyResolver> resolver() default LockKeyResolver.class;
}
