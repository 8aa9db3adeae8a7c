package dev.baton.impl.runtime;

import java.util.Optional;

/**
 * A server's context API shaped as Helidon's {@code io.helidon.common.context.Contexts} (which the Java 17 tests
 * cannot load): a context per thread, entered for a task by {@link #runInContext}. {@link ServerContextsTest} finds
 * it as {@link ServerContexts} finds Helidon's.
 */
public final class RequestContexts {

    /** A request's context. */
    public record Context(String request) {}

    private static final ThreadLocal<Context> CURRENT = new ThreadLocal<>();

    /** When set, {@link #runInContext} fails without running its task, as a server whose context cannot be entered. */
    static volatile boolean refuse;

    private RequestContexts() {}

    /** @return the context of this thread, if any */
    public static Optional<Context> context() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Runs {@code task} inside {@code context}, then restores this thread's own. */
    public static void runInContext(Context context, Runnable task) {
        if (refuse) {
            throw new IllegalStateException("no context may be entered");
        }
        Context before = CURRENT.get();
        CURRENT.set(context);
        try {
            task.run();
        } finally {
            CURRENT.set(before);
        }
    }
}
