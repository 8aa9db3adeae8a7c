package dev.baton.impl.plan;

import dev.baton.impl.config.PollPolicy;
import java.lang.reflect.Method;

/**
 * Everything the interceptor needs for one {@code @Synchronized} method, computed and validated at
 * deployment: an invocation only looks it up.
 *
 * @param description {@code Class.method} for messages
 * @param manager the lock manager's name
 * @param keys computes the key of an invocation
 * @param ttlMillis the lease
 * @param timeoutMillis the wait
 * @param await whether to wait
 * @param poll how to poll the store while waiting: the manager's, with the method's own values over it
 * @param async whether the method returns a {@link java.util.concurrent.CompletionStage}, held until it completes
 * @param sharedLimit {@link dev.baton.spi.Acquisition#EXCLUSIVE}, or how many shared leases may hold the key at
 *     once (its read lock or permits)
 */
public record MethodPlan(
        String description,
        String manager,
        KeySource keys,
        long ttlMillis,
        long timeoutMillis,
        boolean await,
        PollPolicy poll,
        boolean async,
        int sharedLimit) {

    /** Computes a lock key from an invocation. */
    @FunctionalInterface
    public interface KeySource {
        String key(Method method, Object[] arguments);
    }
}
