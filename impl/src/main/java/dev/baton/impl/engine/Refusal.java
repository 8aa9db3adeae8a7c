package dev.baton.impl.engine;

import dev.baton.impl.time.EngineTime;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The last thing one acquisition learnt of the key's holder: its remaining lease and when that was told,
 * so a timeout can say how long the holder keeps the key from now ({@code Retry-After}). Used by the one
 * thread that acquires.
 */
final class Refusal {

    private final EngineTime time;
    private long remainingMillis = -1;
    private long toldAtNanos;

    Refusal(EngineTime time) {
        this.time = time;
    }

    /** The holder's lease ran {@code remaining} more at {@code atNanos} (empty: unknown). */
    void told(OptionalLong remaining, long atNanos) {
        if (remaining.isPresent()) {
            remainingMillis = remaining.getAsLong();
            toldAtNanos = atNanos;
        }
    }

    /** @return what is left of the holder's lease now, if it was ever told */
    Duration remainingNow() {
        if (remainingMillis < 0) {
            return null;
        }
        long left = TimeUnit.MILLISECONDS.toNanos(remainingMillis) - (time.nanoTime() - toldAtNanos);
        return Duration.ofNanos(Math.max(0, left));
    }
}
