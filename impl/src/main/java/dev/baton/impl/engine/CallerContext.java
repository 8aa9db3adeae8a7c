package dev.baton.impl.engine;

/**
 * How the thread that finishes a call for its caller enters the context a server keeps for that call beside the
 * caller's thread. {@link EngineLocks#acquireAsync} completes the application's stage on a Baton thread, where what
 * the application chained to it runs; the runtime supplies the server's way ({@code
 * dev.baton.impl.runtime.ServerContexts}), so the engine stays free of any server.
 */
@FunctionalInterface
public interface CallerContext {

    /** Captures nothing: tasks run as they are. */
    CallerContext NONE = () -> Runnable::run;

    /**
     * @return the calling thread's context, to be {@linkplain Captured#run entered} on the thread that finishes the
     *     call
     */
    Captured capture();

    /** The context captured on a caller's thread. */
    @FunctionalInterface
    interface Captured {

        /**
         * Runs {@code task} on this thread, inside the captured context. The task runs exactly once, also when the
         * context cannot be entered: what it completes must never be lost (a stage that never completes leaves its
         * request hanging, and the lock it would release held).
         *
         * @param task what to run
         */
        void run(Runnable task);
    }
}
