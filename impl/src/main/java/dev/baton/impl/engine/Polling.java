package dev.baton.impl.engine;

import dev.baton.impl.config.PollPolicy;
import dev.baton.spi.AcquireResult;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;

/**
 * How long a contender sleeps between two asks of the store, and how long the store keeps its turn.
 *
 * <p>Exponential backoff with jitter ({@link PollPolicy}: the first step is its minimum, each step doubles up
 * to a ceiling, and a random part of up to its jitter is taken off each step), never past the holder's
 * remaining lease when the store reports it. The ceiling is the policy's maximum, except:
 * <ul>
 * <li>with release notifications, polling is only the safety net for a lost notification: four times the
 * maximum;</li>
 * <li>with {@linkplain dev.baton.spi.StoreCapability#WAITING_TURNS turns}, the waiter whose turn it is polls
 * briskly (the key is kept for it, so a slow poll only delays the hand-off), the others just often enough to
 * claim the turn when they have waited longest: at most {@value #MAX_IN_TURN_MILLIS} ms and
 * {@value #MAX_WITH_TURNS_MILLIS} ms (with notifications {@value #MAX_IN_TURN_NOTIFIED_MILLIS} ms and
 * {@value #MAX_WITH_TURNS_NOTIFIED_MILLIS} ms), and no more than the ceiling above either.</li>
 * </ul>
 * The ceiling is never below the policy's minimum. A waiter that finds the key free but kept for another
 * waiter's turn is watching a hand-off: it asks again after {@link #CHASE_NANOS} (doubling, at most
 * {@value #MAX_CHASES} times in a row), so that it claims the next turn as soon as the key is taken, before
 * the releasing instance's next caller does. With the default policy these are the fixed values
 * Baton uses: 5 ms doubling to 500 ms (2 s notified); on a store with turns that does not notify, 5 ms for
 * every waiter.
 */
final class Polling {

    /** How many times the maximum a waiter backs off to when release notifications wake it. */
    static final int NOTIFIED_FACTOR = 4;
    /**
     * The waiter in turn: its poll interval is the hand-off's delay on a store that does not notify. 5 ms rather
     * than 10 took a hand-off on MariaDB and H2 from about 5 ms to 3 ms (BENCHMARKS.md).
     */
    static final long MAX_IN_TURN_MILLIS = 5;

    /**
     * A waiter not in turn comes back often enough to claim the turn, when it is the oldest, before the
     * younger waiter holding it gets the key: within one short section plus a hand-off. Without notifications
     * that is the only way it learns that the turn is free again (a slower poll let the instances that
     * polled fastest, the ones that had just released, take turns among themselves: issue 13's fairness). It is
     * no slower than the waiter in turn: at 10 ms against 5 ms, the window (a 5 ms section plus a 3 ms hand-off)
     * closed before the oldest waiter's poll on one acquisition in twenty (BENCHMARKS.md).
     */
    static final long MAX_WITH_TURNS_MILLIS = MAX_IN_TURN_MILLIS;

    static final long MAX_WITH_TURNS_NOTIFIED_MILLIS = 100;

    static final long MAX_IN_TURN_NOTIFIED_MILLIS = 250;
    /**
     * The pause of a waiter that found the key free but kept for another's turn: just a hand-off, so it
     * asks again almost at once and stands in line for the next turn as soon as the key is taken.
     */
    static final long CHASE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** After this many chases in a row (1 + 2 + ... + 32 ms), the waiter in turn is slow: back to backoff. */
    static final int MAX_CHASES = 6;
    /** No pause is shorter: a store that answers at once must not be spun on. */
    private static final long FLOOR_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * How long the store keeps a waiter's turn without another poll: several poll intervals, so a late
     * poll keeps it; a waiter that died holds a freed key up no longer than this.
     */
    static final long TURN_KEEP_MILLIS = 1_000;

    private final boolean turns;
    /** {@code bound -> } a random long from 0 (inclusive) to {@code bound} (exclusive). */
    private final LongUnaryOperator random;
    /** Set once the engine has subscribed to the store's release notifications. */
    private volatile boolean notified;

    Polling(boolean turns) {
        this(turns, bound -> ThreadLocalRandom.current().nextLong(bound));
    }

    /**
     * @param turns whether the store keeps waiting turns
     * @param random {@code bound ->} a long from 0 (inclusive) to {@code bound} (exclusive): the jitter's source
     */
    Polling(boolean turns, LongUnaryOperator random) {
        this.turns = turns;
        this.random = random;
    }

    void notified(boolean on) {
        notified = on;
    }

    /**
     * @param policy the waiter's poll policy
     * @param attempt how many asks came before this one's answer, from 0
     * @param answer the store's answer to the last ask
     * @return how long to sleep before the next ask, in nanoseconds
     */
    long pauseNanos(PollPolicy policy, int attempt, AcquireResult answer) {
        return pauseNanos(policy, attempt, answer, 0);
    }

    /**
     * @param policy the waiter's poll policy
     * @param attempt how many asks came before this one's answer, from 0
     * @param answer the store's answer to the last ask
     * @param chased how many answers in a row before this one found the key free but kept for another
     *     waiter's turn
     * @return how long to sleep before the next ask, in nanoseconds
     */
    long pauseNanos(PollPolicy policy, int attempt, AcquireResult answer, int chased) {
        long ceiling = ceilingNanos(policy, answer.isNextInTurn());
        if (keptForAnother(answer) && chased < MAX_CHASES) {
            // A hand-off: the waiter in turn takes the key within a round trip, and then the turn is free
            // again. Ask again soon, so the turn goes to whoever has waited longest rather than to the
            // first poller after the take (most often the instance that has just released the key). The
            // pause doubles, so a turn whose waiter died is not spun on.
            return Math.min(CHASE_NANOS << chased, ceiling);
        }
        long base = TimeUnit.MILLISECONDS.toNanos(policy.minMillis());
        for (int i = 0; i < attempt && base < ceiling; i++) {
            base = base > ceiling / 2 ? ceiling : base * 2;
        }
        base = Math.min(base, ceiling);
        long span = (long) (base * policy.jitter());
        long pause = base - random.applyAsLong(span + 1);
        if (answer.remainingLeaseMillis().isPresent()) {
            // +1 ms: wake just after the lease ends, not just before it.
            pause = Math.min(
                    pause,
                    TimeUnit.MILLISECONDS.toNanos(answer.remainingLeaseMillis().getAsLong() + 1));
        }
        return Math.max(pause, FLOOR_NANOS);
    }

    /** Whether the key was free but kept for another waiter's turn (a store with turns says no lease). */
    boolean keptForAnother(AcquireResult answer) {
        return turns
                && !answer.isAcquired()
                && !answer.isNextInTurn()
                && answer.remainingLeaseMillis().isEmpty();
    }

    /** The longest step in this situation (see the class comment). */
    long ceilingNanos(PollPolicy policy, boolean inTurn) {
        long max = notified ? policy.maxMillis() * NOTIFIED_FACTOR : policy.maxMillis();
        if (inTurn) {
            max = Math.min(max, notified ? MAX_IN_TURN_NOTIFIED_MILLIS : MAX_IN_TURN_MILLIS);
        } else if (turns) {
            max = Math.min(max, notified ? MAX_WITH_TURNS_NOTIFIED_MILLIS : MAX_WITH_TURNS_MILLIS);
        }
        return TimeUnit.MILLISECONDS.toNanos(Math.max(max, policy.minMillis()));
    }
}
