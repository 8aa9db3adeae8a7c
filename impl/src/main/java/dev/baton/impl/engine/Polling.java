package dev.baton.impl.engine;

import dev.baton.spi.AcquireResult;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How long a contender sleeps between two asks of the store, and how long the store keeps its turn.
 *
 * <p>Exponential backoff with jitter, never past the holder's remaining lease when the store reports it.
 * With {@linkplain dev.baton.spi.StoreCapability#WAITING_TURNS turns}, the waiter whose turn it is polls
 * briskly (the key is kept for it, so a slow poll only delays the hand-off), the others just often
 * enough to claim the turn when they have waited longest. With release notifications, polling is only
 * the safety net for a lost notification.
 */
final class Polling {

    private static final long MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long MAX_NOTIFIED_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * A waiter not in turn comes back often enough to claim the turn, when it is the oldest, before the
     * younger waiter holding it gets the key: about one short section.
     */
    private static final long MAX_WITH_TURNS_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The waiter in turn: its poll interval is the hand-off's delay on a store that does not notify. */
    private static final long MAX_IN_TURN_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
    private static final long MAX_IN_TURN_NOTIFIED_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * How long the store keeps a waiter's turn without another poll: several poll intervals, so a late
     * poll keeps it; a waiter that died holds a freed key up no longer than this.
     */
    static final long TURN_KEEP_MILLIS = 1_000;

    private final boolean turns;
    /** Set once the engine has subscribed to the store's release notifications. */
    private volatile boolean notified;

    Polling(boolean turns) {
        this.turns = turns;
    }

    void notified(boolean on) {
        notified = on;
    }

    /**
     * @param attempt how many asks came before this one's answer, from 0
     * @param answer the store's answer to the last ask
     * @return how long to sleep before the next ask, in nanoseconds
     */
    long pauseNanos(int attempt, AcquireResult answer) {
        long max;
        if (answer.isNextInTurn()) {
            max = notified ? MAX_IN_TURN_NOTIFIED_NANOS : MAX_IN_TURN_NANOS;
        } else if (notified) {
            max = turns ? Math.min(MAX_NOTIFIED_NANOS, MAX_WITH_TURNS_NANOS * 2) : MAX_NOTIFIED_NANOS;
        } else {
            max = turns ? MAX_WITH_TURNS_NANOS : MAX_NANOS;
        }
        long base = Math.min(max, MIN_NANOS << Math.min(attempt, 20));
        long pause = base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
        if (answer.remainingLeaseMillis().isPresent()) {
            // +1 ms: wake just after the lease ends, not just before it.
            pause = Math.min(pause, TimeUnit.MILLISECONDS.toNanos(answer.remainingLeaseMillis().getAsLong() + 1));
        }
        return Math.max(pause, TimeUnit.MICROSECONDS.toNanos(100));
    }
}
