package dev.baton.impl.engine;

import dev.baton.Lock;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * The locks of the invocations running on this thread, innermost last: what {@code Locks.current()} reads.
 * A thread keeps its (empty) deque between invocations rather than making one per call: a JDK type that
 * refers to nothing once empty, so a pooled thread that keeps it keeps no application class loader.
 */
public final class CurrentLocks {

    private static final ThreadLocal<ArrayDeque<Lock>> STACK = ThreadLocal.withInitial(ArrayDeque::new);

    private CurrentLocks() {}

    /**
     * @param lock the lock of the invocation that starts on this thread
     */
    public static void push(Lock lock) {
        STACK.get().push(lock);
    }

    /**
     * @param lock the lock of the invocation that ends on this thread
     */
    public static void pop(Lock lock) {
        STACK.get().remove(lock);
    }

    /**
     * @return the innermost current lock
     */
    public static Optional<Lock> current() {
        return Optional.ofNullable(STACK.get().peek());
    }
}
