package dev.baton.impl.health;

import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks one lock manager's store whether it answers: a renewal of a key nobody holds with an owner nobody
 * has (the cheapest round trip every store has, changing nothing), bounded by the probe's own timeout.
 * The call runs on another thread, so a store that ignores its bound cannot hold up the health check;
 * while a probe has not come back, no second one is sent (a hung store is not asked again and again).
 */
final class StoreProbe {

    /** The key of the probe: nobody holds it with {@link #OWNER}, so the renewal changes nothing. */
    static final String KEY = "baton:health-probe";

    static final String OWNER = "baton-health-probe";

    /**
     * What one probe found.
     *
     * @param up whether the store answered in time
     * @param millis how long the probe took
     * @param error when down, what an answer may always show: the failure's type, or Baton's own words
     * @param detail when down, the failure's message as well: a driver's text may hold a URL or a host name
     */
    record Result(boolean up, long millis, String error, String detail) {

        static Result up(long millis) {
            return new Result(true, millis, null, null);
        }

        /** Down, in Baton's own words: nothing of the store's to hide. */
        static Result down(long millis, String why) {
            return new Result(false, millis, why, why);
        }

        /** Down because the store's call threw. */
        static Result failed(long millis, Throwable failure) {
            return new Result(false, millis, failure.getClass().getName(), String.valueOf(failure));
        }
    }

    private final AtomicReference<Probe> inFlight = new AtomicReference<>();

    private record Probe(CompletableFuture<Boolean> answer, long sentAtNanos) {}

    /**
     * @param store the store
     * @param timeoutMillis how long the probe may take
     * @param executor where the store call runs
     * @return what it found
     */
    Result probe(LockStore store, long timeoutMillis, Executor executor) {
        long now = System.nanoTime();
        Probe previous = inFlight.get();
        if (previous != null && !previous.answer.isDone()) {
            return Result.down(
                    elapsed(previous.sentAtNanos),
                    "the previous probe of the store has not come back for " + elapsed(previous.sentAtNanos) + " ms");
        }
        Probe probe;
        try {
            probe = new Probe(
                    CompletableFuture.supplyAsync(
                            () -> store.renew(new Renewal(KEY, OWNER, 1, timeoutMillis)), executor),
                    now);
        } catch (RejectedExecutionException e) {
            return Result.down(0, "the application is stopping");
        }
        inFlight.set(probe);
        try {
            probe.answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return Result.up(elapsed(now));
        } catch (TimeoutException e) {
            return Result.down(elapsed(now), "the store did not answer within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            return Result.failed(elapsed(now), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.down(elapsed(now), "interrupted");
        }
    }

    private static long elapsed(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }
}
