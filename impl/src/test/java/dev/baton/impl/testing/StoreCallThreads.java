package dev.baton.impl.testing;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs each store call on a thread of its own and counts the calls still running: with virtual time, a
 * test waits until only the calls it expects to hang are left ({@link #awaitRunning}) before it moves time on.
 */
public final class StoreCallThreads implements Executor {

    private final AtomicInteger running = new AtomicInteger();

    @Override
    public void execute(Runnable task) {
        running.incrementAndGet();
        Thread thread = new Thread(
                () -> {
                    try {
                        task.run();
                    } finally {
                        running.decrementAndGet();
                    }
                },
                "test-store-call");
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits (real time, at most 10 s) until exactly {@code calls} calls are running. */
    public void awaitRunning(int calls) {
        VirtualTime.awaitReal(
                () -> running.get() == calls, "exactly " + calls + " store calls running, not " + running);
    }
}
