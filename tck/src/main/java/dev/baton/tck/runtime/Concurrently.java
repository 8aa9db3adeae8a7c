package dev.baton.tck.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Fires the same request from many client threads at once. */
public final class Concurrently {

    private Concurrently() {}

    /** Runs {@code request} on {@code callers} threads released together; returns every response. */
    public static List<Http.Response> send(int callers, Supplier<Http.Response> request) {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Http.Response>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return request.get();
                }));
            }
            start.countDown();
            List<Http.Response> responses = new ArrayList<>();
            long deadline = System.nanoTime()
                    + RuntimeTck.scaled(java.time.Duration.ofSeconds(120)).toNanos();
            for (Future<Http.Response> future : futures) {
                responses.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return responses;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a concurrent request failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("concurrent requests did not finish in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }
}
