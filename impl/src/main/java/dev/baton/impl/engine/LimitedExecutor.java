package dev.baton.impl.engine;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs at most a set number of tasks at once on another executor, in order of submission; the rest wait
 * in a queue. It bounds the threads one engine's renewals occupy on the shared store-call pool (which makes
 * a thread per call): a store that cannot renew in batches, or one that hangs, holds at most that many,
 * and every other manager's renewals still get threads of their own.
 */
final class LimitedExecutor implements Executor {

    private final Executor delegate;
    private final int limit;
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger running = new AtomicInteger();

    LimitedExecutor(Executor delegate, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, not " + limit);
        }
        this.delegate = delegate;
        this.limit = limit;
    }

    /**
     * Queues {@code task} and starts what the limit allows.
     *
     * @throws RejectedExecutionException if the executor underneath refused a task (it is shutting down);
     *     that task is dropped
     */
    @Override
    public void execute(Runnable task) {
        waiting.add(task);
        startWaiting();
    }

    /** @return how many tasks run now (at most the limit) */
    int running() {
        return running.get();
    }

    /** @return how many tasks wait for one of the running to end */
    int waiting() {
        return waiting.size();
    }

    private void startWaiting() {
        // A task queued while all ran is started by the one that ends next: it checks the queue after it
        // gave its place back, and whoever queues checks the count after queueing, so one of them sees the other.
        while (!waiting.isEmpty()) {
            int now = running.get();
            if (now >= limit) {
                return;
            }
            if (!running.compareAndSet(now, now + 1)) {
                continue;
            }
            Runnable next = waiting.poll();
            if (next == null) {
                running.decrementAndGet();
                continue;
            }
            try {
                delegate.execute(() -> run(next));
            } catch (RejectedExecutionException e) {
                running.decrementAndGet();
                throw e;
            }
        }
    }

    private void run(Runnable task) {
        try {
            task.run();
        } finally {
            running.decrementAndGet();
            try {
                startWaiting();
            } catch (RejectedExecutionException e) {
                // Shutting down: what still waits is dropped, as the executor underneath drops it too.
            }
        }
    }
}
