package dev.baton.jpa.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Real threads released at once: what the concurrency tests race with. */
public final class Concurrently {

    /** One thread's work. */
    @FunctionalInterface
    public interface Work {
        void run(int thread) throws Exception;
    }

    private Concurrently() {}

    /**
     * Starts {@code threads} threads, releases them together, waits for all (at most two minutes).
     *
     * @param threads how many
     * @param work what each runs, given its index
     * @return what the threads threw, empty if nothing
     * @throws InterruptedException if interrupted while waiting
     */
    public static Queue<Throwable> run(int threads, Work work) throws InterruptedException {
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int index = i;
            Thread t = new Thread(
                    () -> {
                        try {
                            start.await();
                            work.run(index);
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    },
                    "racer-" + i);
            started.add(t);
            t.start();
        }
        start.countDown();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        for (Thread t : started) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                errors.add(new AssertionError(t.getName() + " did not finish within two minutes"));
            }
        }
        return errors;
    }
}
