package dev.baton.tck.properties;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A monotonic clock in nanoseconds, like {@link System#nanoTime()}, that moves only when told: give it to a store
 * that takes its clock (the memory store does), and {@link StoreProperties} steps it between calls, so leases and
 * turns expire exactly where a sequence says. It starts ten seconds before {@code long} overflows, so that a store
 * that compares instants other than by their difference fails early.
 */
public final class TestClock implements LongSupplier {

    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(10));

    @Override
    public long getAsLong() {
        return now.get();
    }

    /**
     * Moves the clock forward.
     *
     * @param step how far, not negative
     */
    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("time only moves forward, not by " + step);
        }
        now.addAndGet(step.toNanos());
    }
}
