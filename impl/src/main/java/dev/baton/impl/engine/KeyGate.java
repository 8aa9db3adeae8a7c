package dev.baton.impl.engine;

import dev.baton.impl.time.EngineTime;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;

/**
 * The local queue of one key: the threads of this JVM that want the key wait here, in arrival order,
 * so only one of them (the contender) talks to the store at a time, and a local release hands the key
 * to the next local waiter at once. The permit is held from the start of contention until release,
 * and may be released by another thread than the one that took it (transaction completion).
 *
 * <p>The gate is its own permit, a fair semaphore of one (one object less per key in use than a gate that
 * holds a semaphore); nothing outside this package sees it, and it is never serialized.
 */
final class KeyGate extends Semaphore {

    private static final long serialVersionUID = 1L;

    /** Engine bookkeeping: how many threads use this gate; the gate leaves the map at zero. */
    transient int users;

    private transient volatile Thread contender;
    private transient volatile HeldLock holder;

    KeyGate() {
        super(1, true);
    }

    boolean tryEnter(EngineTime time, long timeoutNanos) throws InterruptedException {
        return time.tryAcquire(this, timeoutNanos);
    }

    void leave() {
        release();
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

    void holder(HeldLock lock) {
        holder = lock;
    }
}
