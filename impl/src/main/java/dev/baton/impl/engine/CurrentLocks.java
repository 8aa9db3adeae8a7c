package dev.baton.impl.engine;

import dev.baton.Lock;
import java.util.ArrayDeque;
import java.util.Optional;

/** The locks of the invocations running on this thread, innermost last: what {@code Locks.current()} reads. */
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
        ArrayDeque<Lock> stack = STACK.get();
        stack.remove(lock);
        if (stack.isEmpty()) {
            STACK.remove();
        }
    }

    /**
     * @return the innermost current lock
     */
    public static Optional<Lock> current() {
        ArrayDeque<Lock> stack = STACK.get();
        Lock top = stack.peek();
        if (top == null) {
            STACK.remove();
        }
        return Optional.ofNullable(top);
    }
}
