package dev.baton.impl.engine;

import dev.baton.spi.AcquireResult;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread's offer, while it waits in its key's local queue, to take the key straight from the lock it waits for
 * ({@link dev.baton.spi.StoreCapability#HAND_OVER}): the releasing thread, which holds the queue's permit, claims
 * the ticket of the queue's first thread, asks the store to hand the key over to the acquisition the ticket
 * describes, and then either passes its permit to that thread with the store's answer ({@link #handed}) or gives
 * the permit back as any release does ({@link #passed}). The key then passes in one store call instead of a
 * release and an acquisition, and to the thread that would have had it next anyway.
 *
 * <p>States: {@code WAITING}, then either {@code GONE} (the waiter stopped waiting first) or {@code CLAIMED} (the
 * releaser was first), then {@code HANDED} or {@code PASSED}; a handed ticket becomes {@code TAKEN} when its
 * thread takes the permit. Each step is a compare-and-set, so a waiter that times out while its ticket is claimed
 * waits for the store's answer (one call) instead of leaving a key held for nobody. Linearizable, and a released
 * key is always in exactly one place, with the waiter or back with the releaser ({@code HandOverTicketLincheckTest}).
 */
final class HandOverTicket {

    private static final int WAITING = 0;
    private static final int CLAIMED = 1;
    private static final int HANDED = 2;
    private static final int PASSED = 3;
    private static final int GONE = 4;
    private static final int TAKEN = 5;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(HandOverTicket.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread;
    /** The owner token the key is handed over to. */
    final String owner;
    /** The lease the waiter asked for. */
    final long ttlMillis;

    private volatile int state = WAITING;
    // Written before the state turns HANDED, read after it was seen: the volatile state publishes them.
    private AcquireResult result;
    private long sentAt;
    private long answeredAt;

    HandOverTicket(Thread thread, String owner, long ttlMillis) {
        this.thread = thread;
        this.owner = owner;
        this.ttlMillis = ttlMillis;
    }

    /** @return true if the caller (the releaser) claimed the ticket: its thread still waits, and now waits for it */
    boolean claim() {
        return STATE.compareAndSet(this, WAITING, CLAIMED);
    }

    /** The releaser handed the key over: the permit is the ticket thread's from now on. */
    void handed(AcquireResult acquired, long sent, long answered) {
        result = acquired;
        sentAt = sent;
        answeredAt = answered;
        state = HANDED;
        LockSupport.unpark(thread);
    }

    /** The store did not hand the key over: the releaser gives the permit back as any release does. */
    void passed() {
        state = PASSED;
        LockSupport.unpark(thread);
    }

    /** @return true if the waiter stopped waiting before any releaser claimed its ticket */
    boolean leave() {
        return STATE.compareAndSet(this, WAITING, GONE);
    }

    /** @return true if the key was handed over to this ticket and its thread now takes the permit */
    boolean take() {
        return STATE.compareAndSet(this, HANDED, TAKEN);
    }

    /** @return true if the releaser handed the key over (taken by the thread or not yet) */
    boolean isHanded() {
        int s = state;
        return s == HANDED || s == TAKEN;
    }

    boolean isTaken() {
        return state == TAKEN;
    }

    /**
     * Called by the waiter when it stopped waiting but could not {@link #leave}: waits for the releaser's one store
     * call to end.
     *
     * @return true if the key was handed over (the permit taken: the caller holds it); false if it was passed on
     */
    boolean awaitOutcome() {
        boolean interrupted = Thread.interrupted(); // a pending interrupt would make every park return at once
        try {
            while (state == CLAIMED) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
            }
            return take() || state == TAKEN;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    AcquireResult result() {
        return result;
    }

    long sentAt() {
        return sentAt;
    }

    long answeredAt() {
        return answeredAt;
    }
}
