package dev.baton.tck;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers of the contract suite that need no store: owners, key descriptions, threads racing in rounds. */
final class ContractSupport {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** What one racer does in one round. */
    @FunctionalInterface
    interface RoundBody {
        void run(int round, int racer) throws Exception;
    }

    private ContractSupport() {}

    /** A new owner token like the runtime's: 128 random bits, as 32 hex chars. */
    static String newOwner() {
        return randomHex(16);
    }

    static String randomHex(int bytes) {
        byte[] raw = new byte[bytes];
        RANDOM.nextBytes(raw);
        return HexFormat.of().formatHex(raw);
    }

    static int randomInt(int bound) {
        return RANDOM.nextInt(bound);
    }

    /** A key as Java source would spell it: printable ASCII kept, everything else as escapes; long keys shortened. */
    static String describe(String key) {
        if (key == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                out.append(c);
            } else {
                out.append(String.format("\\u%04X", (int) c));
            }
            if (out.length() > 120) {
                out.append("...");
                break;
            }
        }
        return out.append("\" (").append(key.length()).append(" chars)").toString();
    }

    /**
     * Runs {@code racers} threads through {@code rounds} rounds; in each round all of them pass a
     * barrier, then run {@code body} at the same moment.
     *
     * @param racers the number of threads
     * @param rounds the number of rounds
     * @param bound how long the whole race may take
     * @param body what each racer does in each round
     * @throws Exception the first failure of a racer, or a timeout
     */
    static void race(int racers, int rounds, Duration bound, RoundBody body) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(racers);
        AtomicBoolean failed = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(racers, daemonThreads("baton-tck-racer"));
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (int racer = 0; racer < racers; racer++) {
                int id = racer;
                futures.add(pool.submit(() -> {
                    try {
                        for (int round = 0; round < rounds && !failed.get(); round++) {
                            barrier.await(bound.toMillis(), TimeUnit.MILLISECONDS);
                            body.run(round, id);
                        }
                    } catch (Exception | Error e) {
                        failed.set(true);
                        barrier.reset();
                        throw e;
                    }
                    return null;
                }));
            }
            awaitAll(futures, bound);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits for every future, reporting the first real failure (not a broken barrier it caused).
     *
     * @throws Exception the failure, or an {@link AssertionError} when the bound passed
     */
    static void awaitAll(List<? extends Future<?>> futures, Duration bound) throws Exception {
        long deadline = System.nanoTime() + bound.toNanos();
        Throwable first = null;
        TimeoutException timeout = null;
        for (Future<?> future : futures) {
            try {
                future.get(timeout != null ? 0 : Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (first == null || first instanceof BrokenBarrierException) {
                    first = cause;
                }
            } catch (TimeoutException e) {
                timeout = e;
            }
        }
        if (timeout != null && (first == null || first instanceof BrokenBarrierException)) {
            throw new AssertionError(
                    "the racing threads did not finish within " + bound + " (raise "
                            + LockStoreContract.TIME_FACTOR_PROPERTY + " on a slow machine)",
                    timeout);
        }
        if (first instanceof Exception exception) {
            throw exception;
        }
        if (first instanceof Error error) {
            throw error;
        }
    }

    static ThreadFactory daemonThreads(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Idles deliberately, without touching the store (e.g. to let a lease run out untouched). */
    static void pause(Duration duration) {
        try {
            Thread.sleep(Math.max(0, duration.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
