package dev.baton.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Real threads released together: starts {@code n} threads, lets them all begin their work at the same
 * moment, waits for every one and rethrows the first failure (the others added to it as suppressed). What
 * the concurrency tests of the stores and the runtime race with.
 *
 * <pre>{@code
 * Together.run(8, thread -> assertThat(store.acquire(Acquisition.of(key, owner(thread), 60_000))).isNotNull());
 * }</pre>
 */
public final class Together {

    /** How long the threads may take by default, before {@link TimeFactor}: two minutes. */
    public static final Duration DEFAULT_BOUND = Duration.ofMinutes(2);

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** One thread's work. */
    @FunctionalInterface
    public interface Work {
        /**
         * @param thread the thread's index, from 0
         * @throws Exception a failure, rethrown by {@link Together#run}
         */
        void run(int thread) throws Exception;
    }

    /** One thread's work that has a result. */
    @FunctionalInterface
    public interface Call<T> {
        /**
         * @param thread the thread's index, from 0
         * @return the result
         * @throws Exception a failure, rethrown by {@link Together#call}
         */
        T call(int thread) throws Exception;
    }

    private Together() {}

    /**
     * Runs {@code work} on {@code threads} threads released together and waits for all of them, at most
     * {@link #DEFAULT_BOUND} times {@link TimeFactor#get()}.
     *
     * @param threads how many
     * @param work what each runs, given its index
     * @throws Exception the first failure of a thread (by index), or an {@link AssertionError} naming the
     *     threads that did not finish in time
     */
    public static void run(int threads, Work work) throws Exception {
        run(threads, TimeFactor.scale(DEFAULT_BOUND), work);
    }

    /**
     * Runs {@code work} on {@code threads} threads released together and waits for all of them.
     *
     * @param threads how many
     * @param bound how long they may take altogether
     * @param work what each runs, given its index
     * @throws Exception the first failure of a thread (by index), or an {@link AssertionError} naming the
     *     threads that did not finish in time
     */
    public static void run(int threads, Duration bound, Work work) throws Exception {
        call(threads, bound, thread -> {
            work.run(thread);
            return null;
        });
    }

    /**
     * {@link #run(int, Work)} with a result per thread.
     *
     * @param threads how many
     * @param call what each runs, given its index
     * @return the results, by thread index
     * @throws Exception as {@link #run(int, Work)}
     */
    public static <T> List<T> call(int threads, Call<T> call) throws Exception {
        return call(threads, TimeFactor.scale(DEFAULT_BOUND), call);
    }

    /**
     * {@link #run(int, Duration, Work)} with a result per thread.
     *
     * @param threads how many
     * @param bound how long they may take altogether
     * @param call what each runs, given its index
     * @return the results, by thread index
     * @throws Exception as {@link #run(int, Duration, Work)}
     */
    public static <T> List<T> call(int threads, Duration bound, Call<T> call) throws Exception {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
        int run = RUNS.incrementAndGet();
        CountDownLatch start = new CountDownLatch(1);
        AtomicReferenceArray<T> results = new AtomicReferenceArray<>(threads);
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(threads);
        List<Thread> started = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                int index = i;
                Thread thread = new Thread(
                        () -> {
                            try {
                                start.await();
                                results.set(index, call.call(index));
                            } catch (Throwable e) {
                                failures.set(index, e);
                            }
                        },
                        "together-" + run + "-" + i);
                thread.setDaemon(true);
                started.add(thread);
                thread.start();
            }
        } finally {
            start.countDown();
        }
        long deadline = System.nanoTime() + bound.toNanos();
        List<String> late = new ArrayList<>();
        for (Thread thread : started) {
            TimeUnit.NANOSECONDS.timedJoin(thread, Math.max(1, deadline - System.nanoTime()));
            if (thread.isAlive()) {
                late.add(thread.getName());
            }
        }
        Throwable first = null;
        for (int i = 0; i < threads; i++) {
            Throwable failure = failures.get(i);
            if (failure == null) {
                continue;
            }
            if (first == null) {
                first = failure;
            } else if (first != failure) {
                first.addSuppressed(failure);
            }
        }
        if (!late.isEmpty()) {
            started.forEach(Thread::interrupt);
            AssertionError timeout = new AssertionError(late + " did not finish within " + bound + " (raise "
                    + TimeFactor.PROPERTY + " on a slow machine)");
            if (first != null) {
                timeout.addSuppressed(first);
            }
            throw timeout;
        }
        if (first instanceof Exception exception) {
            throw exception;
        }
        if (first instanceof Error error) {
            throw error;
        }
        List<T> list = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            list.add(results.get(i));
        }
        return list;
    }
}
