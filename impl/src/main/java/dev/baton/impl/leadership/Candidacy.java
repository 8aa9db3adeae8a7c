package dev.baton.impl.leadership;

import dev.baton.Leadership;
import dev.baton.LockException;
import dev.baton.LockInterruptedException;
import dev.baton.LockLostException;
import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.time.EngineTime;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * This instance's candidacy in one election. Between terms it stands by on a thread of its own: a waiting
 * acquisition of the election's lock, so a stand-by is woken as any waiter is (at once where the store tells
 * of releases or frees a dead holder's locks, else at its poll interval, at the latest when the lease of a
 * crashed leader ends). When it gets the lock a term begins and the thread goes back to its pool: the engine
 * renews the lock, and the lock's loss ends the term. A term also ends at {@link #stepDown}, {@link #close}
 * and the shutdown; then the revocation is told before the lock is released, so no other instance can lead
 * while this one is still told it leads.
 *
 * <p>State changes are made under this object's monitor, held for a few instructions only; notifications and
 * store calls are made outside it.
 */
final class Candidacy implements Leadership {

    /** How long one waiting acquisition of a stand-by lasts before it looks again whether it should stand. */
    static final long STANDBY_WAIT_MILLIS = 60_000;

    /** How long a stand-by waits after the store failed before it tries again. */
    static final long RETRY_AFTER_FAILURE_MILLIS = 1_000;

    /** How many store failures in a row a stand-by takes before it logs one as a warning. */
    static final int FAILURES_BEFORE_WARNING = 3;

    /** The most a term ends before its lease's end when its renewals do not come back: 2 s. */
    static final long MAX_REVOKE_MARGIN_MILLIS = 2_000;

    /**
     * Grants and revocations are told one at a time and in order: a revocation is never told before its grant,
     * whichever threads end and begin the term. Not this object's monitor, which is never held while telling.
     */
    private final Object telling = new Object();

    /** One term: the lock that makes it and how it ends. */
    private static final class Term {
        final HeldLock lock;
        final LeadershipGranted granted;
        final CompletableFuture<Revocation> end = new CompletableFuture<>();
        /** Set when the term starts ending: from then on this instance does not lead, even if the lock is still held. */
        volatile boolean ending;
        /** The watch of the lease's end ({@link #watch}). */
        volatile EngineTime.Scheduled watch;

        Term(HeldLock lock, LeadershipGranted granted) {
            this.lock = lock;
            this.granted = granted;
        }
    }

    private final LockEngine engine;
    private final String name;
    private final String key;
    private final Executor threads;
    private final LeadershipListener listener;
    private final Consumer<Candidacy> onClose;

    // Guarded by this.
    private Term term;
    private CompletableFuture<Term> nextTerm = new CompletableFuture<>();
    private volatile boolean closed;
    /** A stand-by task is submitted or running. */
    private boolean standing;
    /** The thread standing by, while it waits for the lock: interrupted by {@link #close}. */
    private Thread standbyThread;
    /** Not before this (engine clock) does the stand-by ask for the lock again: after a step-down. */
    private long standAgainAtNanos;

    /** Store failures in a row while standing by; only the stand-by's thread uses it (one at a time). */
    private int failures;

    /** The current term, for the lock-free reads ({@link #isLeader}, {@link #token}). */
    private volatile Term current;

    Candidacy(
            LockEngine engine,
            String name,
            Executor threads,
            LeadershipListener listener,
            Consumer<Candidacy> onClose) {
        this.engine = engine;
        this.name = name;
        this.key = KEY_PREFIX + name;
        this.threads = threads;
        this.listener = listener;
        this.onClose = onClose;
        this.standAgainAtNanos = engine.time().nanoTime();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isLeader() {
        Term t = current;
        return t != null && !t.ending && t.lock.isHeld();
    }

    @Override
    public OptionalLong token() {
        Term t = current;
        return t != null && !t.ending && t.lock.isHeld()
                ? OptionalLong.of(t.lock.fencingToken())
                : OptionalLong.empty();
    }

    /** @return the lock of the current term while this instance leads, else null */
    HeldLock termLock() {
        Term t = current;
        return t != null && !t.ending && t.lock.isHeld() ? t.lock : null;
    }

    @Override
    public synchronized CompletionStage<Long> whenGranted() {
        if (term != null && !term.ending) {
            return CompletableFuture.completedStage(term.lock.fencingToken());
        }
        return nextTerm.thenApply(t -> t.lock.fencingToken()).minimalCompletionStage();
    }

    @Override
    public synchronized CompletionStage<Revocation> whenRevoked() {
        if (term != null) {
            return term.end.minimalCompletionStage();
        }
        return nextTerm.thenCompose(t -> t.end).minimalCompletionStage();
    }

    @Override
    public void stepDown() {
        stepDown(Duration.ofMillis(engine.settings().ttlMillis()));
    }

    @Override
    public void stepDown(Duration pause) {
        Objects.requireNonNull(pause, "pause");
        if (pause.isNegative()) {
            throw new IllegalArgumentException("The pause after stepping down must not be negative: " + pause);
        }
        Term t;
        synchronized (this) {
            t = term;
            if (t == null || t.ending) {
                return;
            }
            t.ending = true;
            long now = engine.time().nanoTime();
            long pauseNanos = pause.toNanos();
            standAgainAtNanos = now + Math.min(pauseNanos, Long.MAX_VALUE / 4);
        }
        end(t, Reason.STEPPED_DOWN, null);
    }

    @Override
    public void close() {
        close(Reason.WITHDRAWN);
    }

    /**
     * Leaves the election.
     *
     * @param reason {@link Reason#WITHDRAWN} or {@link Reason#SHUTDOWN}: what the revocation of a current term says
     */
    void close(Reason reason) {
        Term t;
        CompletableFuture<Term> pending;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            t = term;
            if (t != null) {
                t.ending = true;
            }
            pending = nextTerm;
            if (standbyThread != null) {
                // Under the monitor: the stand-by clears this field under it before its thread goes back to the pool.
                standbyThread.interrupt();
            }
        }
        onClose.accept(this);
        if (t != null) {
            end(t, reason, null);
        }
        pending.completeExceptionally(
                new LockException("This instance left the election '" + name + "' before it was granted"));
    }

    /** Starts standing by, unless it does already, leads, or is closed. */
    void standBy() {
        synchronized (this) {
            if (closed || standing || term != null) {
                return;
            }
            standing = true;
        }
        try {
            threads.execute(this::standingBy);
        } catch (RejectedExecutionException e) {
            // The pool is shut down: the application is stopping.
            synchronized (this) {
                standing = false;
            }
            close(Reason.SHUTDOWN);
        }
    }

    /** The stand-by: waits for the lock until it gets it (a term begins) or the candidacy is closed. */
    private void standingBy() {
        synchronized (this) {
            if (closed) {
                standing = false;
                return;
            }
            standbyThread = Thread.currentThread();
        }
        try {
            while (true) {
                long pauseNanos;
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    pauseNanos = standAgainAtNanos - engine.time().nanoTime();
                }
                if (pauseNanos > 0) {
                    engine.time().park(this, pauseNanos);
                    continue;
                }
                if (engine.isClosed()) {
                    close(Reason.SHUTDOWN);
                    return;
                }
                HeldLock lock = tryToLead();
                if (lock != null) {
                    begin(lock);
                    return;
                }
            }
        } finally {
            synchronized (this) {
                if (standbyThread == Thread.currentThread()) {
                    standbyThread = null;
                    standing = false;
                }
            }
            // An interrupt of close() meant for the wait: not for the pool's next task.
            Thread.interrupted();
        }
    }

    /** One waiting acquisition: the lock, or null when the wait ended without it (time, interrupt, a store failure). */
    private HeldLock tryToLead() {
        try {
            return engine.acquireOrNull(key, engine.settings().ttlMillis(), STANDBY_WAIT_MILLIS, true);
        } catch (LockInterruptedException e) {
            Thread.interrupted(); // close() ends the wait; the loop sees it closed
            return null;
        } catch (RuntimeException e) {
            if (engine.isClosed()) {
                return null; // the loop closes the candidacy
            }
            failures++;
            // A store not ready yet at startup (a persistence unit that starts after the application-started
            // event) fails once or twice: logged from the third failure in a row, then once a minute.
            if (failures >= FAILURES_BEFORE_WARNING && (failures - FAILURES_BEFORE_WARNING) % 60 == 0) {
                BatonLog.standbyFailed(engine.logKeys(), name, engine.name(), e, RETRY_AFTER_FAILURE_MILLIS);
            } else {
                BatonLog.debug(
                        engine.logKeys(), name, "Standing by for '" + name + "' failed (" + e + "); trying again");
            }
            engine.time().park(this, TimeUnit.MILLISECONDS.toNanos(RETRY_AFTER_FAILURE_MILLIS));
            return null;
        }
    }

    /** A term begins with {@code lock}, unless the candidacy was closed meanwhile (then the lock is released). */
    private void begin(HeldLock lock) {
        // The term outlives this thread: a loss must not interrupt it, nor take it for the lock's work.
        lock.unbindThread();
        failures = 0;
        Term t;
        CompletableFuture<Term> waiting;
        synchronized (this) {
            standbyThread = null;
            standing = false;
            if (closed) {
                t = null;
                waiting = null;
            } else {
                t = new Term(lock, new LeadershipGranted(engine.name(), name, lock.fencingToken()));
                term = t;
                current = t;
                waiting = nextTerm;
                nextTerm = new CompletableFuture<>();
            }
        }
        if (t == null) {
            release(lock);
            return;
        }
        synchronized (telling) {
            BatonLog.leadershipGranted(engine.logKeys(), name, engine.name(), lock.fencingToken());
            try {
                listener.granted(t.granted);
            } catch (RuntimeException e) {
                BatonLog.listenerFailed("leadership granted", engine.logKeys(), name, e);
            }
            waiting.complete(t);
        }
        lock.whenLost().thenAccept(loss -> lost(t, loss));
        watch(t);
    }

    /**
     * How long before the lease's end a term ends when its renewals have not come back: a tenth of the ttl, at
     * most {@link #MAX_REVOKE_MARGIN_MILLIS}. The store frees the lock no earlier than the lease's end by this
     * clock (it counts from the sending of the last renewal that succeeded), so the revocation is told before
     * another instance can be granted, rather than after, as the lock's loss is.
     */
    private long revokeMarginNanos() {
        return TimeUnit.MILLISECONDS.toNanos(Math.min(engine.settings().ttlMillis() / 10, MAX_REVOKE_MARGIN_MILLIS));
    }

    /** Plans the check of the term's lease, {@link #revokeMarginNanos()} before its end. */
    private void watch(Term t) {
        if (t.ending) {
            return;
        }
        long delay =
                t.lock.leaseEndNanos() - revokeMarginNanos() - engine.time().nanoTime();
        try {
            t.watch = engine.time().schedule(() -> checkLease(t), delay);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the engine's timer is shut down: the shutdown ends the term
        }
    }

    /** On the engine's timer (short): renewed meanwhile, watch again; else end the term, off the timer. */
    private void checkLease(Term t) {
        if (t.ending) {
            return;
        }
        if (t.lock.leaseEndNanos() - revokeMarginNanos() - engine.time().nanoTime() > 0) {
            watch(t);
            return;
        }
        try {
            threads.execute(() -> expiring(t));
        } catch (RejectedExecutionException e) {
            expiring(t);
        }
    }

    private void expiring(Term t) {
        synchronized (this) {
            if (term != t || t.ending) {
                return;
            }
            t.ending = true;
        }
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(
                t.lock.leaseEndNanos() - engine.time().nanoTime());
        end(
                t,
                Reason.LOST,
                new LockLostException(
                        key,
                        t.lock.fencingToken(),
                        "its renewals have not come back and its lease ends in " + Math.max(0, leftMillis)
                                + " ms by the local clock, when another instance may be granted",
                        null));
    }

    private void lost(Term t, LockLostException loss) {
        synchronized (this) {
            if (term != t || t.ending) {
                return; // ended otherwise already; the release of a lost lock is local
            }
            t.ending = true;
        }
        end(t, engine.isClosed() ? Reason.SHUTDOWN : Reason.LOST, engine.isClosed() ? null : loss);
    }

    /**
     * Ends a term whose {@code ending} flag this thread set: tells, then releases the lock, then stands by
     * again unless closed.
     */
    private void end(Term t, Reason reason, LockLostException loss) {
        Revocation revocation = new Revocation(t.lock.fencingToken(), reason, Optional.ofNullable(loss));
        LeadershipRevoked revoked =
                new LeadershipRevoked(engine.name(), name, revocation.token(), reason, revocation.loss());
        BatonLog.leadershipRevoked(
                engine.logKeys(),
                name,
                engine.name(),
                t.lock.fencingToken(),
                loss != null ? loss.getMessage() : describe(reason),
                reason == Reason.LOST);
        EngineTime.Scheduled watch = t.watch;
        if (watch != null) {
            watch.cancel();
        }
        synchronized (telling) {
            try {
                listener.revoked(revoked);
            } catch (RuntimeException e) {
                BatonLog.listenerFailed("leadership revoked", engine.logKeys(), name, e);
            }
            t.end.complete(revocation);
        }
        release(t.lock);
        synchronized (this) {
            if (term == t) {
                term = null;
                current = null;
            }
        }
        standBy();
    }

    private static String describe(Reason reason) {
        switch (reason) {
            case STEPPED_DOWN:
                return "it stepped down";
            case WITHDRAWN:
                return "it left the election";
            case SHUTDOWN:
                return "the application is shutting down";
            default:
                return "its lock was lost";
        }
    }

    private void release(HeldLock lock) {
        try {
            lock.release();
        } catch (RuntimeException e) {
            BatonLog.releaseFailed(lock.logKeys(), lock.key(), e); // it expires by itself
        }
    }

    @Override
    public String toString() {
        Term t = current;
        return "Leadership[" + name + (t != null && !t.ending ? ", leading, token=" + t.lock.fencingToken() : "")
                + (closed ? ", closed" : "") + "]";
    }
}
