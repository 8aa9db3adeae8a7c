package dev.baton.impl.engine;

import dev.baton.Lock;
import dev.baton.LockLostException;
import dev.baton.LockOptions;
import dev.baton.spi.KeyFormat;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock this JVM holds: its identity in the store, its local lease estimate and its state. State
 * changes are compare-and-sets, so release, loss and renewal may race from different threads.
 *
 * <p>Its renewal bookkeeping (its slot in the engine's timer heap) is its superclass {@link LockRenewal},
 * not an object it points to: one object per held lock instead of two. Measured on 2026-12-05 with
 * {@code UncontendedBench.baton} on the memory store (acquire and release, with the renewal planned and
 * cancelled; JMH {@code -f 1 -wi 3 -i 5 -w 2s -r 2s -prof gc}, twice each): composition allocates 718-719
 * bytes per cycle against 686-687, 32 bytes (4.7 %) more, in every run; throughput differed by less than
 * the noise of the shared 2-core machine (ratios 0.85 and 1.58 in the two runs). The superclass's members
 * are package-private, so none of them shows in the public API.
 */
public final class HeldLock extends LockRenewal implements Lock {

    enum State {
        HELD,
        RELEASED,
        /** Its lease may have ended, or the store said another owner has it: nothing more to do in the store. */
        LOST,
        /**
         * Shutting down: the holder was told the lock is lost (so {@code isHeld()} is false and a transaction
         * cannot commit), but its work may still run, so the lock is still renewed and released only when
         * the work ends.
         */
        REVOKED,
        /** Shutting down, its work still ran at the end of the grace period: renewals stopped, left to expire in the store. */
        ABANDONED,
        /** Its work ended and it is left held until a set time ({@link #keepUntil}): renewals stopped, never released. */
        KEPT
    }

    private static final VarHandle STATE;
    private static final VarHandle LOST;
    private static final VarHandle ENDED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(HeldLock.class, "state", State.class);
            LOST = lookup.findVarHandle(HeldLock.class, "lost", CompletableFuture.class);
            ENDED = lookup.findVarHandle(HeldLock.class, "ended", CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LockEngine engine;
    private final KeyGate gate;
    private final String key;
    private final String storeKey;
    private final String owner;
    private final long fencingToken;
    /** The lease each renewal sets: the ttl it was taken with, until {@link #extend} changes it. */
    private volatile long ttlMillis;

    // A field and a VarHandle rather than an AtomicReference: one object less per held lock.
    private volatile State state = State.HELD;
    // The two futures are made when first asked for (most locks are never asked): two objects less per
    // held lock. Each side sets its flag before it reads the other's field, so one of them completes the future.
    private volatile CompletableFuture<LockLostException> lost;
    /** Whether the holder was told of the loss ({@link #signalLost()}). */
    private volatile boolean lossTold;
    /** Completed when the lock is released (its work ended) or abandoned at shutdown. */
    private volatile CompletableFuture<Void> ended;
    /** Whether the work under the lock ended ({@link #ended()} completes). */
    private volatile boolean hasEnded;
    /** When the acquisition was sent, by the local monotonic clock: the hold time counts from it. */
    private final long acquiredAtNanos;
    /** When the last successful acquire or renew call was sent, by the local monotonic clock: the lease counts from it. */
    private volatile long leaseStartNanos;
    /** The end of the lease by the local monotonic clock: {@link #leaseStartNanos} plus the ttl. */
    private volatile long leaseEndNanos;
    /** The thread running the work under this lock, while it runs synchronously: for re-entry detection and interrupts. */
    private volatile Thread boundThread;
    /**
     * Whether it holds the key beside the key's local queue (a shared lease, or an asynchronous acquisition)
     * rather than with the queue's permit, which it then does not give back.
     */
    private final boolean beside;
    /** Set once, when the lock is lost: the reason and its time in one object, read together (null while held). */
    private volatile Loss loss;

    /** Why and when (local monotonic clock) a lock was lost; made only for a lost lock, not kept per held one. */
    private record Loss(LockLostException reason, long atNanos) {}

    HeldLock(
            LockEngine engine,
            KeyGate gate,
            String key,
            String storeKey,
            String owner,
            long fencingToken,
            long ttlMillis,
            long leaseStartNanos,
            Thread boundThread,
            boolean beside) {
        this.engine = engine;
        this.beside = beside;
        this.gate = gate;
        this.key = key;
        this.storeKey = storeKey;
        this.owner = owner;
        this.fencingToken = fencingToken;
        this.ttlMillis = ttlMillis;
        this.leaseStartNanos = leaseStartNanos;
        this.acquiredAtNanos = leaseStartNanos;
        this.leaseEndNanos = leaseStartNanos + TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        this.boundThread = boundThread;
    }

    private boolean casState(State expected, State next) {
        return STATE.compareAndSet(this, expected, next);
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean isHeld() {
        return state == State.HELD && leaseEndNanos - engine.time().nanoTime() > 0;
    }

    @Override
    public Instant validUntil() {
        return Instant.now().plusNanos(leaseEndNanos - engine.time().nanoTime());
    }

    @Override
    public void extend(Duration ttl) {
        // Validated exactly as a ttl given to LockOptions is.
        long millis = LockOptions.defaults().withTtl(ttl).ttl().orElseThrow().toMillis();
        checkHeld();
        engine.extend(this, millis);
    }

    @Override
    public CompletionStage<LockLostException> whenLost() {
        CompletableFuture<LockLostException> f = madeOnce(LOST);
        if (lossTold) {
            f.complete(lossReason());
        }
        return f.minimalCompletionStage();
    }

    @Override
    public void checkHeld() {
        if (isHeld()) {
            return;
        }
        LockLostException reason = lossReason();
        if (reason != null) {
            throw reason;
        }
        throw new LockLostException(
                key,
                fencingToken,
                state == State.RELEASED ? "it was released" : "its lease ran out before it could be renewed",
                null);
    }

    @Override
    public boolean release() {
        State previous;
        do {
            previous = state;
            if (previous == State.RELEASED || previous == State.KEPT) {
                return false; // a kept lock expires by itself: releasing it would end its hold early
            }
        } while (!casState(previous, State.RELEASED));
        // From here on a loss being reported cannot interrupt the thread, which is done with the work.
        unbindThread();
        stop();
        try {
            if (previous == State.ABANDONED) {
                // Left to expire at shutdown: the store is closed; only the local bookkeeping is left.
                engine.forget(this);
                return false;
            }
            return engine.release(this, previous == State.HELD);
        } finally {
            markEnded();
        }
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            dev.baton.impl.logging.BatonLog.releaseFailed(engine.logKeys(), key, e);
        }
    }

    /**
     * Ends the work under this lock but leaves the lock held in the store until {@code untilNanos} (a
     * value of the engine's clock, {@link System#nanoTime()} in production), when it expires by itself: renewals stop, one renewal sets its lease
     * to exactly the time left, and it is never released. If that time has already passed, or the lock is not
     * held any more (lost), this is {@link #release()}. A kept lock fires no {@code LockReleased} event: it is
     * not released. What an exclusive schedule needs, so that a late firing of the same planned time finds
     * the lock held.
     *
     * @param untilNanos the end of the hold, by the local monotonic clock
     * @return true if the lock is now held until then; false if it was released (or was not held)
     */
    public boolean keepUntil(long untilNanos) {
        for (State s = state; s == State.HELD || s == State.REVOKED; s = state) {
            if (untilNanos - engine.time().nanoTime() <= 0) {
                break;
            }
            if (casState(s, State.KEPT)) {
                return kept(untilNanos, s == State.HELD);
            }
        }
        release();
        return false;
    }

    private boolean kept(long untilNanos, boolean wasHeld) {
        unbindThread();
        stop();
        try {
            // A renewal already sent could reach the store after ours and lengthen the lease past the hold:
            // take the renewal slot, so none is in flight and none starts (a kept lock is not renewable).
            long giveUpAt = leaseEndNanos + TimeUnit.SECONDS.toNanos(1);
            while (!start() && engine.time().nanoTime() - giveUpAt < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            long leftNanos = untilNanos - engine.time().nanoTime();
            if (leftNanos <= 0) {
                try {
                    engine.release(this, wasHeld); // the hold ended meanwhile
                } catch (RuntimeException e) {
                    dev.baton.impl.logging.BatonLog.releaseFailed(engine.logKeys(), key, e);
                }
                return false;
            }
            // Rounded up: never shorter than the hold.
            return engine.keep(this, (leftNanos + 999_999) / 1_000_000);
        } finally {
            markEnded();
        }
    }

    /** The work stopped running on its thread (its result is a stage that completes later). */
    public void unbindThread() {
        // The gate's monitor orders an interrupt on loss with the unbinding of the thread (never interrupt a
        // thread that moved on): held for a few instructions, never across blocking code. Not this lock's own
        // monitor, which the application may use (it gets the lock in events); no object of its own.
        synchronized (gate) {
            boundThread = null;
        }
    }

    /**
     * @return the name of the lock manager this lock belongs to
     */
    public String managerName() {
        return engine.name();
    }

    /** Identity, as {@link Object#equals}: two acquisitions are two locks. */
    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    /**
     * From final fields rather than the identity hash, whose first use writes the object's header (a lock may go
     * into hash sets: the interceptor's, the application's); consistent with identity equality, as any fixed value is.
     */
    @Override
    public int hashCode() {
        return storeKey.hashCode() * 31 + Long.hashCode(fencingToken);
    }

    /** @return how log lines about this lock write its key ({@code baton.log.keys}) */
    public KeyFormat logKeys() {
        return engine.logKeys();
    }

    @Override
    public String toString() {
        return "Lock[" + key + ", token=" + fencingToken + ", " + state + "]";
    }

    // --- engine side ---

    /**
     * Marks the lock lost ({@code isHeld()} turns false at once); {@link #signalLost()} tells the holder.
     *
     * @param revoke true at shutdown: the lock stays renewed until its work ends
     * @return false if it was not held
     */
    boolean lose(String reason, Throwable cause, boolean revoke) {
        if (!casState(State.HELD, revoke ? State.REVOKED : State.LOST)) {
            return false;
        }
        loss = new Loss(
                new LockLostException(key, fencingToken, reason, cause),
                engine.time().nanoTime());
        return true;
    }

    /** Completes {@link #whenLost()}: runs the holder's callbacks, so never on the renewal scheduler. */
    void signalLost() {
        lossTold = true;
        CompletableFuture<LockLostException> f = lost;
        if (f != null) {
            f.complete(lossReason());
        }
    }

    LockLostException lossReason() {
        Loss l = loss;
        return l == null ? null : l.reason();
    }

    /** @return whether the lock was lost (or revoked) and its holder has not been told yet ({@link #signalLost()}) */
    boolean lossUntold() {
        return loss != null && !lossTold;
    }

    /** @return when the lock was lost, by the local monotonic clock; meaningful once {@link #lossReason()} is set */
    long lostAtNanos() {
        Loss l = loss;
        return l == null ? 0 : l.atNanos();
    }

    boolean stillHeldState() {
        return state == State.HELD;
    }

    /** Still ours in the store and to be renewed: held, or revoked at shutdown while its work runs. */
    boolean renewable() {
        State s = state;
        return s == State.HELD || s == State.REVOKED;
    }

    /**
     * At the end of the shutdown grace period, for a lock still open: stop renewing it and
     * leave it to expire in the store. A lock lost already is abandoned too (its release would find the
     * store closed).
     *
     * @return true if it was revoked and is now abandoned; false if it was lost already, or released meanwhile
     */
    boolean abandon() {
        for (State s = state; s == State.REVOKED || s == State.LOST; s = state) {
            if (casState(s, State.ABANDONED)) {
                stop();
                markEnded();
                return s == State.REVOKED;
            }
        }
        return false;
    }

    boolean isAbandoned() {
        return state == State.ABANDONED;
    }

    /** Completed when the lock is released or abandoned. */
    CompletableFuture<Void> ended() {
        CompletableFuture<Void> f = madeOnce(ENDED);
        if (hasEnded) {
            f.complete(null);
        }
        return f;
    }

    /** The future in {@code field} ({@link #LOST} or {@link #ENDED}), made by the first thread that asks. */
    @SuppressWarnings("unchecked")
    private <T> CompletableFuture<T> madeOnce(VarHandle field) {
        CompletableFuture<T> f = (CompletableFuture<T>) field.getVolatile(this);
        if (f != null) {
            return f;
        }
        CompletableFuture<T> made = new CompletableFuture<>();
        CompletableFuture<T> raced =
                (CompletableFuture<T>) field.compareAndExchange(this, (CompletableFuture<T>) null, made);
        return raced == null ? made : raced;
    }

    private void markEnded() {
        hasEnded = true;
        CompletableFuture<Void> f = ended;
        if (f != null) {
            f.complete(null);
        }
    }

    Thread boundThread() {
        return boundThread;
    }

    /** Interrupts the thread running the work under this lock, if it still does. */
    void interruptWorker() {
        synchronized (gate) { // see unbindThread
            Thread worker = boundThread;
            if (worker != null) {
                worker.interrupt();
            }
        }
    }

    KeyGate gate() {
        return gate;
    }

    /** @return whether it holds the key beside the local queue, without its permit */
    boolean beside() {
        return beside;
    }

    String storeKey() {
        return storeKey;
    }

    String owner() {
        return owner;
    }

    long ttlMillis() {
        return ttlMillis;
    }

    /** The lease from now on, set by {@link #extend} while it holds the renewal slot, before {@link #leaseRenewed}. */
    void ttlMillis(long ttl) {
        ttlMillis = ttl;
    }

    /**
     * @return the end of the lease by the engine's monotonic clock: the sending of the last acquire or renewal
     *     call that succeeded plus the ttl; the store frees the lock no earlier
     */
    public long leaseEndNanos() {
        return leaseEndNanos;
    }

    long acquiredAtNanos() {
        return acquiredAtNanos;
    }

    long leaseStartNanos() {
        return leaseStartNanos;
    }

    void leaseRenewed(long sentAtNanos) {
        leaseStartNanos = sentAtNanos;
        leaseEndNanos = sentAtNanos + TimeUnit.MILLISECONDS.toNanos(ttlMillis);
    }

    @Override
    LockTimers timers() {
        return engine.renewals().timers();
    }

    /** @return its renewal's bookkeeping, kept by {@link Renewals}: the lock itself (its superclass) */
    LockRenewal renewal() {
        return this;
    }
}
