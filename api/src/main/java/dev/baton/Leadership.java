package dev.baton;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * This instance's candidacy in a leader election: at most one instance of the application leads a given
 * name at any time, and another takes over when the leader stops, crashes or loses its store. Built on a
 * lock: the leader holds the key {@value #KEY_PREFIX}{@code <name>} of its lock manager, renewed as any lock,
 * and a term's fencing token is that lock's, so work done as leader can be fenced.
 *
 * <pre>{@code
 * @Inject Locks locks;
 *
 * Leadership relay = locks.lead("outbox-relay");             // joins the election, stands by
 * relay.whenGranted().thenAccept(token -> startRelaying(token));
 * relay.whenRevoked().thenAccept(revoked -> stopRelaying());
 * ...
 * if (relay.isLeader()) { publish(batch, relay.token().getAsLong()); }
 * }</pre>
 *
 * <h2>Terms</h2>
 * A <b>term</b> begins when this instance is granted the lock ({@link #isLeader()} true from then on; then a {@code
 * dev.baton.event.LeadershipGranted} event, whose observers see {@code isLeader()} true, and {@link #whenGranted()}) and
 * ends when it is revoked (a {@code dev.baton.event.LeadershipRevoked} event, {@link #whenRevoked()}):
 * <ul>
 * <li>when the lock is lost: the store said another owner holds it, or renewals failed (the store is slow or
 * unreachable) until the lease ran out. {@link #isLeader()} turns false no later than the lease's end by the
 * local monotonic clock, counted from the sending of the last renewal that succeeded, which is before
 * any other instance can be granted; the event follows on one of Baton's threads;</li>
 * <li>at {@link #stepDown()}: the term ends and the lock is released; this instance does not stand again for a
 * pause, so a stand-by takes over rather than this instance winning again at once;</li>
 * <li>at {@link #close()} (this instance leaves the election) and when the application stops: the term ends
 * <em>before</em> the lock is released.</li>
 * </ul>
 * Between terms this instance stands by: it waits for the lock as a waiting acquisition does (a stand-by
 * takes over within one ttl of the leader's crash, at once on stores that free a dead holder's locks and
 * where the leader released its lock).
 *
 * <p>One candidacy per name and lock manager in an application: {@link Locks#lead(String)} returns the
 * same object until it is closed. Thread-safe.
 *
 * @see Leader
 */
public interface Leadership extends AutoCloseable {

    /** What the key of an election starts with: {@code leader:}. */
    String KEY_PREFIX = "leader:";

    /**
     * @return the name of the election, as given to {@link Locks#lead(String)}
     */
    String name();

    /**
     * Whether this instance leads now: a term has begun, has not ended, and its lock's lease has not run out
     * by the local clock. False once the candidacy is closed.
     *
     * @return true while this instance leads
     */
    boolean isLeader();

    /**
     * The fencing token of the current term: the token of its lock, greater than that of every earlier term of
     * this election (on stores that issue fencing tokens). Pass it with the writes done as leader.
     *
     * @return the token while this instance leads, else empty
     */
    OptionalLong token();

    /**
     * Completes when this instance is granted the leadership: at once (completed) while it leads, else when its
     * next term begins. Completes exceptionally with a {@link LockException} when the candidacy is closed first.
     * Callbacks run on the thread that grants it (one of Baton's), after the {@code LeadershipGranted} event's
     * synchronous observers.
     *
     * @return a stage completed with the term's fencing token
     */
    CompletionStage<Long> whenGranted();

    /**
     * Completes when the current term ends or, when this instance does not lead, when its next term ends.
     * Completes exceptionally with a {@link LockException} when the candidacy is closed before a term began.
     * Callbacks run on the thread that ends the term (one of Baton's for a loss and the shutdown, the caller's for
     * {@link #stepDown()} and {@link #close()}), after the {@code LeadershipRevoked} event's synchronous observers
     * and before the lock is released.
     *
     * @return a stage completed with the revocation
     */
    CompletionStage<Revocation> whenRevoked();

    /**
     * Ends the current term (revoked with {@link Reason#STEPPED_DOWN}), releases the lock and
     * stands by again after a pause of one lease (the manager's ttl), so that a stand-by takes over. Does
     * nothing when this instance does not lead.
     */
    void stepDown();

    /**
     * Like {@link #stepDown()}, with the pause given.
     *
     * @param pause how long this instance does not stand after stepping down; zero stands again at once
     * @throws IllegalArgumentException if the pause is negative
     * @throws NullPointerException if it is null
     */
    void stepDown(Duration pause);

    /**
     * Leaves the election: ends the current term (revoked with {@link Reason#WITHDRAWN}),
     * releases the lock and stops standing by. Idempotent. {@link Locks#lead(String)} afterwards joins again,
     * with a new candidacy.
     */
    @Override
    void close();

    /** Why a term ended. */
    enum Reason {
        /**
         * The lock was lost: the store said another owner holds it, or its renewals did not come back (a store
         * slow or unreachable) and its lease was about to end. Another instance may lead already.
         */
        LOST,
        /** This instance stepped down ({@link #stepDown()}). */
        STEPPED_DOWN,
        /** This instance left the election ({@link #close()}). */
        WITHDRAWN,
        /** The application (or its lock manager) is shutting down. */
        SHUTDOWN
    }

    /**
     * How a term ended, as {@link #whenRevoked()} tells it.
     *
     * @param token the fencing token of the term that ended
     * @param reason why it ended
     * @param loss the lock's loss, for {@link Reason#LOST}
     */
    record Revocation(long token, Reason reason, Optional<LockLostException> loss) {

        /**
         * Checks the components.
         *
         * @param token the fencing token of the term that ended
         * @param reason why it ended
         * @param loss the lock's loss, for {@link Reason#LOST}
         * @throws NullPointerException if {@code reason} or {@code loss} is null
         */
        public Revocation {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(loss, "loss");
        }
    }
}
