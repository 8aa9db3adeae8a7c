package dev.baton.impl.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The renewal bookkeeping of one held lock, kept by {@link Renewals}: its planned renewal and lease check
 * (its slot in the engine's {@link LockTimers}), when the next renewal is due, the one renewal call it
 * may have in flight, and the failure of the last attempt. The lock itself only stops it ({@link #stop})
 * and takes its slot before a last lease change ({@link #start}).
 *
 * <p>The lock's superclass rather than an object it points to: the same fields, without a second object
 * header and the two references between them (32 bytes per acquisition, measured: see {@link HeldLock}). Only {@link Renewals} and
 * {@link LockTimers} use these members.
 *
 * <p>The renewal slot ({@link #start}, {@link #done}) is what keeps a lease the length its lock believes: never two
 * renewal calls of one lock at once, and a batch never renews a lock whose ttl an extension changed meanwhile, so the
 * store's last lease of a held lock always has the lock's ttl (not linearizable, a batch renews several locks at once;
 * model-checked against extensions in {@code RenewalSlotLincheckTest}).
 */
abstract sealed class LockRenewal permits HeldLock {

    /** Set once the lock is released, lost for good, kept or abandoned: a timer planned after that is dropped. */
    private volatile boolean stopped;
    /** When the next renewal is due, by the engine's clock: batches take along locks due soon. */
    private volatile long dueAtNanos;
    /** A renewal call is in flight: at most one per lock (a field and a VarHandle: no object of its own). */
    private volatile boolean inFlight;

    private static final VarHandle IN_FLIGHT;

    static {
        try {
            IN_FLIGHT = MethodHandles.lookup().findVarHandle(LockRenewal.class, "inFlight", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** The renewal in flight has been sent to the store (not only handed to the store-call executor). */
    private volatile boolean sent;
    /** When the renewal in flight was sent. */
    private volatile long sentAtNanos;
    /** The failure of the last renewal attempt, cleared by a successful one: the cause of a later loss. */
    private volatile Throwable failure;

    // Guarded by the monitor of {@link #timers}.
    long renewAt;
    boolean renewPlanned;
    long watchAt;
    boolean watchPlanned;
    int heapIndex = -1;
    /** An int, not a long: with the other fields, 8 bytes less per held lock (see LockTimers#plans). */
    int plannedOrder;

    /** @return the lock this bookkeeping is part of */
    final HeldLock lock() {
        return (HeldLock) this;
    }

    /** @return the timers of the lock's engine (not a field: 8 bytes per held lock with the alignment) */
    abstract LockTimers timers();

    /**
     * Drops the planned renewal and lease check, and any planned later: the timers plan nothing for a stopped
     * lock, and read that flag under their monitor, which the removal takes after setting it.
     */
    void stop() {
        stopped = true;
        timers().remove(this);
    }

    boolean stopped() {
        return stopped;
    }

    /** When the earlier of its planned timers is due; only meaningful while one is planned. Guarded as above. */
    long nextTimerAt() {
        if (!watchPlanned) {
            return renewAt;
        }
        if (!renewPlanned) {
            return watchAt;
        }
        return renewAt - watchAt <= 0 ? renewAt : watchAt;
    }

    void dueAt(long nanos) {
        dueAtNanos = nanos;
    }

    long dueAt() {
        return dueAtNanos;
    }

    /** @return true if no renewal call was in flight, and now one is: the caller holds the slot */
    boolean start() {
        return IN_FLIGHT.compareAndSet(this, false, true);
    }

    /** Gives the slot back. */
    void done() {
        sent = false;
        inFlight = false;
    }

    /** The renewal in flight is being sent to the store now. */
    void sent(long atNanos) {
        sentAtNanos = atNanos;
        sent = true;
    }

    /** @return whether a renewal call has been sent to the store and has not come back */
    boolean inFlight() {
        return sent;
    }

    long sentAt() {
        return sentAtNanos;
    }

    void failed(Throwable e) {
        failure = e;
    }

    void succeeded() {
        failure = null;
    }

    Throwable failure() {
        return failure;
    }
}
