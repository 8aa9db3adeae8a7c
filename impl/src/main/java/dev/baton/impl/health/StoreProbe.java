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

    /** What one probe found. */
    record Result(boolean up, long millis, String error) {}

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
            return new Result(
                    false,
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
            return new Result(false, 0, "the application is stopping: " + e.getMessage());
        }
        inFlight.set(probe);
        try {
            probe.answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return new Result(true, elapsed(now), null);
        } catch (TimeoutException e) {
            return new Result(false, elapsed(now), "the store did not answer within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            return new Result(false, elapsed(now), String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, elapsed(now), "interrupted");
        }
    }

    private static long elapsed(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }
}
