package dev.baton.jpa.internal.advisory;

import dev.baton.LockStoreException;
import dev.baton.jpa.JpaDatabase;
import dev.baton.jpa.internal.CallBound;
import dev.baton.jpa.internal.DedicatedConnection;
import dev.baton.jpa.internal.JpaMessage;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.KeyFormat;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The advisory mode of the JPA store: each held key is a database session lock (PostgreSQL
 * {@code pg_try_advisory_lock(bigint)}, MariaDB {@code GET_LOCK(name, 0)}) on a connection this instance
 * keeps from the persistence unit's pool, so the database ends the lock when that connection ends.
 *
 * <h2>Connections: a small pool of lanes, not one per held lock</h2>
 * Keys are spread by hash over {@value #LANES} lanes; a lane holds one connection while it holds at least one
 * lock, and gives it back to the pool when it holds none. A connection per held lock would cost a database
 * backend per held lock (PostgreSQL: a process each, 100 connections by default) and drain the application's
 * pool as locks are held; a session lock costs the database nothing per extra lock. The price: when a lane's
 * connection breaks, all of that lane's locks end together, which each holder learns at its next renewal like
 * any lost lock.
 *
 * <p>A session takes a lock it already holds again (both databases count it), so two owners in this instance
 * must never ask the database on one connection: every operation on a key runs under its lane's lock, and a key
 * held through this instance is refused without a round trip. A failed statement leaves the session's locks
 * uncertain, so it ends the lane: its connection is closed (the database frees its locks) and its locks are lost.
 * A session that answers but no longer holds one of its locks (the database ended it some other way) ends the
 * lane too, but is not closed: it gives up every advisory lock it holds and goes back to its pool, which may be
 * a server's that would otherwise lend the closed session again or lose it; only if that fails is it closed.
 *
 * <p>About 550 lines: lanes, expiry, tokens and the namespace share the lane's lock and its invariants, which
 * read best in one class.
 *
 * <h2>Ttl</h2>
 * The database knows no expiry. This instance ends a lock that was not renewed within its ttl (a timer, and
 * every operation on the key checks it first), by the JVM's monotonic clock, so a holder that hangs still loses
 * it. A renewal checks that the session still holds the lock (one round trip on its connection) and then moves
 * the deadline; a lost connection fails it, so the holder learns of the loss within one renewal interval.
 *
 * <h2>Fencing tokens</h2>
 * Drawn from the store's sequence on the lock's connection after the lock is taken: a later holder of the key
 * takes the lock after this holder freed it, so it draws a larger token. The sequence is the one of table mode,
 * so tokens keep growing when a deployment switches modes.
 *
 * <p>No row keeps a key's last token here, so tokens grow only as long as the sequence does. A sequence that went
 * back ({@code ALTER SEQUENCE ... RESTART}, a restore from an older backup) is noticed by an instance that handed
 * out a higher token before: it refuses the acquisition ({@code BATON-JPA-015}) and frees the lock again, until
 * the sequence is above that token. An instance that never saw a higher token (started after the restore, or
 * that held other keys) cannot tell, and hands the low token out.
 *
 * <h2>Namespace</h2>
 * The lock of a key is derived from the table the database resolves the configured name to ({@code
 * AdvisorySql.namespace}), so every spelling of one table and every search path that reaches it gives one lock.
 */
public final class AdvisoryLocks implements AutoCloseable {

    /** Connections per store instance at most, each holding any number of locks. */
    static final int LANES = 4;

    private static final System.Logger LOG = System.getLogger(AdvisoryLocks.class.getName());

    private final DedicatedConnection.Source factory;
    private final AdvisorySql sql;
    private final String table;
    private final String sequence;
    private final long statementTimeoutMillis;
    /** How the keys in the causes of BATON-JPA-005 are written. */
    private final KeyFormat logKeys;
    /** The highest token this instance handed out: a draw at or below it means the sequence went back. */
    private final AtomicLong highestToken = new AtomicLong();
    /** The highest token of the last {@code BATON-JPA-015} warning, so a refusal is logged once, not per call. */
    private final AtomicLong warnedAt = new AtomicLong(-1);

    private final Lane[] lanes = new Lane[LANES];
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;
    private volatile String namespace;
    private volatile boolean closed;

    /**
     * The advisory locks of one store instance.
     *
     * @param factory lends the connections (the persistence unit's pool or the data source)
     * @param database the database the store connected to
     * @param table the store's table: its name keeps stores on different tables apart
     * @param sequence the fencing sequence
     * @param statementTimeoutMillis the bound of calls that come without one
     * @param logKeys how the keys in the causes of {@code BATON-JPA-005} are written
     * @throws dev.baton.LockConfigurationException if the database has no advisory locks
     */
    public AdvisoryLocks(
            DedicatedConnection.Source factory,
            JpaDatabase database,
            String table,
            String sequence,
            long statementTimeoutMillis,
            KeyFormat logKeys) {
        this.logKeys = logKeys;
        this.sql = AdvisorySql.of(database, sequence);
        this.factory = factory;
        this.table = table;
        this.sequence = sequence;
        this.statementTimeoutMillis = statementTimeoutMillis;
        for (int i = 0; i < LANES; i++) {
            lanes[i] = new Lane();
        }
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "baton-jpa-advisory-ttl");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Takes the key if no session holds it; the token is drawn after.
     *
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the ttl this instance keeps
     * @param maxWaitMillis the call's bound (a session lock is never waited for)
     * @return the result
     */
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        Lane lane = lane(key);
        try (CallBound bound = CallBound.open(maxWaitMillis)) {
            lane.lock(bound, "acquire", key);
            try {
                checkOpen();
                Held current = held.get(key);
                if (current != null) {
                    if (!current.expired()) {
                        return AcquireResult.notAcquired(); // held through this instance
                    }
                    end(current);
                }
                DedicatedConnection dc = lane.connection(factory);
                Connection c = dc.connection();
                boolean attached = bound.attach(c);
                long before;
                long token;
                try {
                    LockName name = LockName.of(namespace(c, bound), key);
                    if (!sql.tryLock(c, name, bound)) {
                        return AcquireResult.notAcquired();
                    }
                    before = highestToken.get(); // handed out before this draw, so below it
                    token = sql.nextToken(c, bound);
                    if (token > before) {
                        highestToken.accumulateAndGet(token, Math::max);
                        Held taken = new Held(key, owner, name, lane, dc, ttlMillis);
                        held.put(key, taken);
                        lane.locks++;
                        schedule(taken);
                        return AcquireResult.acquired(token);
                    }
                    sql.unlock(c, name, bound);
                } catch (SQLException | RuntimeException e) {
                    breakLane(lane, e);
                    throw new LockStoreException(
                            "The JPA lock store (advisory) failed to acquire key '" + abbreviate(key) + "': " + e, e);
                } finally {
                    if (attached) {
                        bound.detach(c);
                    }
                }
                throw sequenceWentBack(key, token, before);
            } finally {
                lane.idle();
                lane.lock.unlock();
            }
        }
    }

    /**
     * The sequence handed out a token at or below one this instance handed out before: it was restarted, or
     * the database restored from an older backup. The key's lock was freed again.
     */
    private LockStoreException sequenceWentBack(String key, long token, long before) {
        if (warnedAt.getAndSet(before) != before) {
            JpaMessage.SEQUENCE_WENT_BACK.log(LOG, sequence, token, before);
        }
        return new LockStoreException("The JPA lock store (advisory) refused key '" + abbreviate(key)
                + "': its fencing sequence " + sequence + " went back (it gave " + token + " after this instance"
                + " had handed out " + before + "); a token at or below one already handed out would let a stale"
                + " holder's writes pass a fence (" + JpaMessage.SEQUENCE_WENT_BACK.id() + ")");
    }

    /**
     * Checks that the session still holds {@code owner}'s lock and moves its deadline.
     *
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the new ttl
     * @param maxWaitMillis the call's bound
     * @return false when this instance does not hold it for {@code owner}, its ttl passed, or its connection
     *     no longer holds it (the lock is then lost)
     */
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return onLiveLock(key, owner, maxWaitMillis, "renew", (h, bound) -> {
            Connection c = h.connection.connection();
            boolean attached = bound.attach(c);
            try {
                if (!sql.holds(c, h.name, bound)) {
                    loseLane(
                            h.lane,
                            new SQLException("the session no longer holds the lock of key '"
                                    + abbreviate(logKeys.format(key)) + "'"),
                            bound);
                    return false;
                }
                h.renewed(ttlMillis);
                schedule(h);
                return true;
            } catch (SQLException | RuntimeException e) {
                breakLane(h.lane, e); // the connection is gone or unusable, and the lock with it
                return false;
            } finally {
                if (attached) {
                    bound.detach(c);
                }
            }
        });
    }

    /**
     * Frees {@code owner}'s lock.
     *
     * @param key the key
     * @param owner the owner
     * @return whether this instance held it for {@code owner}, live, and it is now free
     * @throws LockStoreException if the unlock failed: the connection is then closed, which ends the lock
     */
    public boolean release(String key, String owner) {
        return onLiveLock(key, owner, statementTimeoutMillis, "release", (h, bound) -> {
            try {
                return unlock(h, bound);
            } catch (SQLException | RuntimeException e) {
                breakLane(h.lane, e);
                throw new LockStoreException(
                        "The JPA lock store (advisory) failed to release key '" + abbreviate(key)
                                + "'; its connection was closed, so the database ends the lock: " + e,
                        e);
            }
        });
    }

    @FunctionalInterface
    private interface LiveLockOperation {
        boolean run(Held h, CallBound bound);
    }

    /**
     * Runs {@code operation} on {@code owner}'s lock under its lane's lock, if this instance holds it and its
     * ttl has not passed (a lock whose ttl passed is ended first); otherwise answers false.
     */
    private boolean onLiveLock(String key, String owner, long maxWaitMillis, String name, LiveLockOperation operation) {
        Held h = held.get(key);
        if (h == null || !h.owner.equals(owner)) {
            checkOpen();
            return false;
        }
        try (CallBound bound = CallBound.open(maxWaitMillis)) {
            h.lane.lock(bound, name, key);
            try {
                checkOpen();
                if (h.ended) {
                    return false;
                }
                if (h.expired()) {
                    end(h);
                    return false;
                }
                return operation.run(h, bound);
            } finally {
                h.lane.idle();
                h.lane.lock.unlock();
            }
        }
    }

    /** Frees every lock this instance holds and gives the connections back. Operations fail after. */
    @Override
    public void close() {
        closed = true;
        for (Lane lane : lanes) {
            lane.lock.lock();
            try (CallBound bound = CallBound.open(statementTimeoutMillis)) {
                for (Held h : heldOn(lane)) {
                    try {
                        unlock(h, bound);
                    } catch (SQLException | RuntimeException e) {
                        breakLane(lane, e);
                        break;
                    }
                }
                lane.idle();
            } finally {
                lane.lock.unlock();
            }
        }
        timer.shutdownNow();
    }

    private void checkOpen() {
        if (closed) {
            throw new LockStoreException("The JPA lock store is closed");
        }
    }

    private Lane lane(String key) {
        int h = key.hashCode();
        return lanes[(h ^ h >>> 16) & (LANES - 1)];
    }

    private String namespace(Connection c, CallBound bound) throws SQLException {
        String ns = namespace;
        if (ns == null) {
            ns = sql.namespace(c, table, bound);
            namespace = ns;
        }
        return ns;
    }

    /** Unlocks on the lock's connection; the lock is over either way. Under the lane's lock. */
    private boolean unlock(Held h, CallBound bound) throws SQLException {
        if (h.ended) {
            return false; // its lane broke meanwhile
        }
        Connection c = h.connection.connection();
        boolean attached = bound.attach(c);
        try {
            boolean wasHeld = sql.unlock(c, h.name, bound);
            forget(h);
            if (!wasHeld) {
                // the session had lost it (the database ended it some other way): its other locks are doubtful too
                loseLane(
                        h.lane,
                        new SQLException("the session no longer held the lock of key '"
                                + abbreviate(logKeys.format(h.key)) + "'"),
                        bound);
            }
            return wasHeld;
        } finally {
            if (attached) {
                bound.detach(c);
            }
        }
    }

    /** Ends a lock whose ttl passed. Under the lane's lock. */
    private void end(Held h) {
        try (CallBound bound = CallBound.open(statementTimeoutMillis)) {
            unlock(h, bound);
        } catch (SQLException | RuntimeException e) {
            breakLane(h.lane, e);
        }
    }

    private void forget(Held h) {
        if (h.ended) {
            return;
        }
        h.ended = true;
        held.remove(h.key, h);
        h.lane.locks--;
        ScheduledFuture<?> expiry = h.expiry;
        if (expiry != null) {
            expiry.cancel(false);
        }
    }

    /** Closes the lane's connection, so the database ends its locks; they are lost. Under the lane's lock. */
    private void breakLane(Lane lane, Exception cause) {
        List<Held> lost = forgetLane(lane);
        if (lane.connection != null) {
            lane.connection.discard();
            lane.connection = null;
        }
        warnLost(lost, "failed and was closed", cause);
    }

    /**
     * The lane's session answered but no longer holds one of its locks: every lock of the lane is lost. A
     * session that still answers is not ended (on a server's pool the pool would lend it again, or lose it): it
     * gives up every advisory lock it holds and goes back to its pool; only if that fails is it ended, as
     * {@link #breakLane} does. Under the lane's lock, within {@code bound}.
     */
    private void loseLane(Lane lane, Exception cause, CallBound bound) {
        List<Held> lost = forgetLane(lane);
        DedicatedConnection dc = lane.connection;
        if (dc != null) {
            lane.connection = null;
            Connection c = dc.connection();
            boolean unlocked;
            try {
                sql.unlockAll(c, bound);
                unlocked = true;
            } catch (SQLException | RuntimeException e) {
                cause.addSuppressed(e);
                unlocked = false;
            }
            bound.detach(c); // its network timeout back before the pool has it again
            if (unlocked) {
                dc.giveBack();
            } else {
                dc.discard();
            }
            warnLost(
                    lost,
                    unlocked
                            ? "no longer held one of them; it gave up the others and went back to its pool"
                            : "no longer held one of them and was closed",
                    cause);
        } else {
            warnLost(lost, "no longer held one of them", cause);
        }
    }

    private List<Held> forgetLane(Lane lane) {
        List<Held> lost = heldOn(lane);
        for (Held h : lost) {
            forget(h);
        }
        lane.locks = 0;
        return lost;
    }

    private static void warnLost(List<Held> lost, String fate, Exception cause) {
        if (!lost.isEmpty()) {
            JpaMessage.ADVISORY_LOCKS_LOST.log(LOG, lost.size(), fate, cause);
        }
    }

    private List<Held> heldOn(Lane lane) {
        List<Held> on = new ArrayList<>();
        for (Held h : held.values()) {
            if (h.lane == lane && !h.ended) {
                on.add(h);
            }
        }
        return on;
    }

    private void schedule(Held h) {
        ScheduledFuture<?> previous = h.expiry;
        if (previous != null) {
            previous.cancel(false);
        }
        long delay = Math.max(0, h.deadline - System.nanoTime()) + 1;
        try {
            h.expiry = timer.schedule(() -> expire(h), delay, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            h.expiry = null; // the store is closing and frees every lock
        }
    }

    private void expire(Held h) {
        h.lane.lock.lock();
        try {
            if (!h.ended && h.expired()) {
                end(h);
            }
            h.lane.idle();
        } finally {
            h.lane.lock.unlock();
        }
    }

    private static String abbreviate(String key) {
        return key.length() <= 80 ? key : key.substring(0, 80) + "...";
    }

    /** One connection with the locks of the keys that hash to it. Its fields are guarded by {@link #lock}. */
    private static final class Lane {

        final ReentrantLock lock = new ReentrantLock();
        DedicatedConnection connection;
        int locks;

        /** Waits for the lane: other calls hold it for a round trip each, so this waits up to the network bound. */
        void lock(CallBound bound, String operation, String key) {
            boolean locked;
            try {
                locked = lock.tryLock(bound.networkTimeoutMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LockStoreException(
                        "Interrupted while the JPA lock store (advisory) waited to " + operation + " key '"
                                + abbreviate(key) + "'",
                        e);
            }
            if (!locked) {
                throw new LockStoreException("The JPA lock store (advisory) could not " + operation + " key '"
                        + abbreviate(key) + "' within " + bound.maxWaitMillis() + " ms: its connection is busy with"
                        + " other calls that the database does not answer");
            }
        }

        DedicatedConnection connection(DedicatedConnection.Source factory) {
            if (connection == null) {
                try {
                    connection = factory.take();
                } catch (SQLException e) {
                    throw new LockStoreException("The JPA lock store (advisory) could not get a connection: " + e, e);
                }
            }
            return connection;
        }

        /** Gives the connection back to the pool when it holds no lock. */
        void idle() {
            if (locks == 0 && connection != null) {
                connection.giveBack();
                connection = null;
            }
        }
    }

    /** A lock held through this instance. Mutable fields are guarded by its lane's lock. */
    private static final class Held {

        final String key;
        final String owner;
        final LockName name;
        final Lane lane;
        final DedicatedConnection connection;
        volatile long deadline;
        volatile boolean ended;
        ScheduledFuture<?> expiry;

        Held(String key, String owner, LockName name, Lane lane, DedicatedConnection connection, long ttlMillis) {
            this.key = key;
            this.owner = owner;
            this.name = name;
            this.lane = lane;
            this.connection = connection;
            renewed(ttlMillis);
        }

        void renewed(long ttlMillis) {
            // ttls up to 365 days fit in nanoseconds of a long
            deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        }

        boolean expired() {
            return deadline - System.nanoTime() <= 0;
        }
    }
}
