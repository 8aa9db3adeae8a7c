package dev.baton.impl.engine;

import dev.baton.impl.time.EngineTime;
import dev.baton.impl.time.FairPermit;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The local queue of one key: the threads of this JVM that want the key wait here, in arrival order,
 * so only one of them (the contender) talks to the store at a time, and a local release hands the key
 * to the next local waiter at once. The permit is held from the start of contention until release,
 * and may be released by another thread than the one that took it (transaction completion).
 *
 * <p>The gate is its own permit (one object per key in use: a gate holding a fair semaphore would be three, a
 * gate that is a semaphore two); nothing outside this package sees it, and it is never serialized.
 */
final class KeyGate extends FairPermit {

    private static final long serialVersionUID = 1L;

    private static final VarHandle HOLDER;

    static {
        try {
            HOLDER = MethodHandles.lookup().findVarHandle(KeyGate.class, "holder", HeldLock.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Engine bookkeeping: how many threads use this gate; the gate leaves the map at zero. */
    transient int users;

    private transient volatile Thread contender;
    /** The lock held through this gate: the engine's list of its held locks ({@link KeyGates}). */
    private transient volatile HeldLock holder;

    boolean tryEnter(EngineTime time, long timeoutNanos) throws InterruptedException {
        return time.tryAcquire(this, timeoutNanos);
    }

    void leave() {
        give();
    }

    void contending(Thread thread) {
        contender = thread;
    }

    /** Called when the store says the key was released somewhere: the contender retries at once. */
    void wakeContender() {
        Thread thread = contender;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    HeldLock holder() {
        return holder;
    }

    /** Called with the gate's permit taken, so no other lock is the holder. */
    void holder(HeldLock lock) {
        holder = lock;
    }

    /**
     * @return true if {@code lock} was the holder and is not any more; false if it was not (already cleared):
     *     of two threads that clear it, one is told true
     */
    boolean clearHolder(HeldLock lock) {
        return HOLDER.compareAndSet(this, lock, (HeldLock) null);
    }
}
