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
 * Runs a method only in the instance that leads an election ({@link Leadership}); in the others a call
 * <b>skips</b>: the method is not called and the call returns {@code null}.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class OutboxRelay {
 *     @Leader("outbox-relay")
 *     @Schedule(second = "*&#47;5", hour = "*", persistent = false)   // fires in every instance
 *     void relay() { ... }                                          // runs in the leader only
 * }
 * }</pre>
 *
 * <h2>Semantics</h2>
 * <ul>
 * <li>Every instance joins the election when the application starts (before the application's own startup
 * observers see the application started) and leaves it when the application stops; {@link
 * Locks#lead(String)} with the same name returns that candidacy.</li>
 * <li>A call in the leader runs the method. If the leadership ends while it runs (the lock lost, a step-down,
 * the shutdown), a JTA transaction the method runs in is marked rollback-only before it commits, as with a
 * lost {@link Synchronized} lock; the method is not interrupted: it checks {@link Leadership#isLeader()} where it
 * can stop, and fences its writes with {@link Leadership#token()}.</li>
 * <li>A call in another instance skips: the method is not called, {@code null} is returned and a DEBUG line is
 * logged. Skipping rather than failing because the methods that need a leader are called in every instance
 * by a timer or a loop, where a follower doing nothing is the expected outcome and an exception would be
 * logged as an error (or retried) by the container. Callers that must know ask {@link Leadership#isLeader()}.</li>
 * <li>A method with a primitive return type fails the deployment (a skipped call returns {@code null}); the
 * binding on a class applies to each of its business methods.</li>
 * </ul>
 * The interceptor runs at {@link #DEFAULT_PRIORITY}, outside {@link Exclusive}'s and {@link Synchronized}'s.
 */
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Leader {

    /** The default priority of the interceptor: {@code PLATFORM_AFTER + 880} (4880), just outside {@link Exclusive}. */
    int DEFAULT_PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 880;

    /**
     * The name of the election. Empty: the fully qualified name of the bean's class that declares the
     * annotation.
     *
     * @return the election's name
     */
    @Nonbinding
    String value() default "";

    /**
     * The named lock manager whose store holds the election, declared in {@code baton.managers}. Empty: the
     * default manager.
     *
     * @return the manager name
     */
    @Nonbinding
    String manager() default "";
}
