package dev.baton.impl.engine;

import dev.baton.impl.time.EngineTime;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;

/**
 * The local queue of one key: the threads of this JVM that want the key wait here, in arrival order,
 * so only one of them (the contender) talks to the store at a time, and a local release hands the key
 * to the next local waiter at once. The permit is held from the start of contention until release,
 * and may be released by another thread than the one that took it (transaction completion).
 */
final class KeyGate {

    private final Semaphore permit = new Semaphore(1, true);
    /** Engine bookkeeping: how many threads use this gate; the gate leaves the map at zero. */
    int users;

    private volatile Thread contender;
    private volatile HeldLock holder;

    boolean tryEnter(EngineTime time, long timeoutNanos) throws InterruptedException {
        return time.tryAcquire(permit, timeoutNanos);
    }

    void leave() {
        permit.release();
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
