package dev.baton.impl.runtime;

import dev.baton.impl.engine.CallerContext;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;

/**
 * Carries the context a server keeps for a call beside its thread to the thread that finishes the call for it.
 *
 * <p>A {@code @Synchronized} method that returns a stage and waits for its lock returns at once, and so does {@code
 * Locks.acquireAsync}; Baton completes the stage later, on a thread of its own, and what the application chained to
 * it runs there, up to the JAX-RS runtime writing an asynchronous response. The Jakarta EE servers allow that from
 * any thread. Helidon MP keeps the state of a request in an {@code io.helidon.common.context.Context} of its own,
 * and its JAX-RS response filters fail on a thread without it ({@code IllegalStateException: Context must be
 * available in Jersey}: a 500 instead of the method's answer or its 409). So the runtime {@linkplain #capture()
 * captures} the caller's context and completes the stage {@linkplain Captured#run inside it}.
 *
 * <p>Helidon is found by reflection: its jars are Java 21 class files, which this Java 17 library cannot compile
 * against. Without Helidon (or without a context on the calling thread), {@link #capture()} captures nothing and
 * runs tasks as they are.
 */
public final class ServerContexts implements CallerContext {

    /** Helidon's static accessors of the current context. */
    static final String HELIDON_CONTEXTS = "io.helidon.common.context.Contexts";

    /** Helidon's context type. */
    static final String HELIDON_CONTEXT = "io.helidon.common.context.Context";

    /** Captures nothing: runs a task as it is. */
    static final Captured NOTHING = CallerContext.NONE.capture();

    /** The server's contexts where Baton runs on one that keeps them (Helidon MP), else {@link CallerContext#NONE}'s. */
    public static final ServerContexts CURRENT =
            find(ServerContexts.class.getClassLoader(), HELIDON_CONTEXTS, HELIDON_CONTEXT);

    /** {@code static Optional<Context> context()}, or null where there is no such server context. */
    private final MethodHandle current;

    /** {@code static void runInContext(Context, Runnable)}. */
    private final MethodHandle runIn;

    private ServerContexts(MethodHandle current, MethodHandle runIn) {
        this.current = current;
        this.runIn = runIn;
    }

    /**
     * The accessors of a context API shaped as Helidon's: a class with {@code static Optional<C> context()} and
     * {@code static void runInContext(C, Runnable)}.
     *
     * @param loader where to look for them
     * @param contextsClass the class of the static accessors
     * @param contextClass the context type {@code C}
     * @return what captures such contexts, or captures nothing where the classes are not found
     */
    static ServerContexts find(ClassLoader loader, String contextsClass, String contextClass) {
        try {
            Class<?> contexts = Class.forName(contextsClass, false, loader);
            Class<?> context = Class.forName(contextClass, false, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            return new ServerContexts(
                    lookup.findStatic(contexts, "context", MethodType.methodType(Optional.class)),
                    lookup.findStatic(
                            contexts, "runInContext", MethodType.methodType(void.class, context, Runnable.class)));
        } catch (ReflectiveOperationException | LinkageError e) {
            // no such server, or another version of its API: capture nothing
            return new ServerContexts(null, null);
        }
    }

    /** {@inheritDoc} Where the server keeps none, {@link #NOTHING}. */
    @Override
    public Captured capture() {
        if (current == null) {
            return NOTHING;
        }
        Optional<?> context;
        try {
            context = (Optional<?>) current.invoke();
        } catch (Throwable e) {
            return NOTHING;
        }
        if (context == null || context.isEmpty()) {
            return NOTHING;
        }
        Object captured = context.get();
        return task -> {
            boolean[] ran = {false};
            try {
                runIn.invoke(captured, (Runnable) () -> {
                    ran[0] = true;
                    task.run();
                });
            } catch (Throwable e) {
                if (!ran[0]) {
                    task.run(); // the context could not be entered
                } else if (e instanceof RuntimeException thrown) {
                    throw thrown; // the task's own
                } else if (e instanceof Error thrown) {
                    throw thrown;
                }
            }
        };
    }
}
