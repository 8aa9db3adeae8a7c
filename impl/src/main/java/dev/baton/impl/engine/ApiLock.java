package dev.baton.impl.engine;

import dev.baton.Lock;
import dev.baton.LockLostException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lock as the programmatic API hands it out. Taken or released inside a unit of work of the calling
 * thread ({@link ReleaseDeferral}: a JTA transaction), it leaves the store only when its holder has
 * released it <em>and</em> every such unit of work has completed, whichever comes last; until then it
 * stays in the store and is renewed, and a loss still fails the unit of work. For its holder a release is
 * final at once: {@link #isHeld()} turns false and {@link #checkHeld()} throws.
 */
final class ApiLock implements Lock {

    private final HeldLock lock;
    private final ReleaseDeferral deferral;
    /** The holder's release and the completions of units of work still to come. */
    private final AtomicInteger pending = new AtomicInteger(1);

    private final AtomicBoolean released = new AtomicBoolean();

    private ApiLock(HeldLock lock, ReleaseDeferral deferral) {
        this.lock = lock;
        this.deferral = deferral;
    }

    /**
     * @param lock a lock just acquired on the calling thread
     * @param deferral the units of work to wait for
     * @return the lock for the application, waiting for the calling thread's unit of work, if any
     */
    static ApiLock taken(HeldLock lock, ReleaseDeferral deferral) {
        ApiLock api = new ApiLock(lock, deferral);
        try {
            api.awaitUnitOfWork();
        } catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
        return api;
    }

    /**
     * @param lock a lock granted to an asynchronous acquisition, on one of Baton's threads
     * @param deferral the units of work a release waits for
     * @return the lock for the application, tied to no unit of work until it is released
     */
    static ApiLock unbound(HeldLock lock, ReleaseDeferral deferral) {
        return new ApiLock(lock, deferral);
    }

    /** If the calling thread runs in a unit of work, the store release waits for it too. */
    private boolean awaitUnitOfWork() {
        pending.incrementAndGet();
        boolean waiting = false;
        try {
            waiting = deferral.awaitCompletion(lock, this::completed);
            return waiting;
        } finally {
            if (!waiting) {
                pending.decrementAndGet();
            }
        }
    }

    /** A unit of work this lock waits for has completed. */
    private void completed() {
        if (pending.decrementAndGet() == 0) {
            lock.close();
        }
    }

    @Override
    public boolean release() {
        if (!released.compareAndSet(false, true)) {
            return false;
        }
        boolean held = lock.isHeld();
        boolean waiting;
        try {
            waiting = awaitUnitOfWork();
        } catch (RuntimeException | Error e) {
            if (pending.decrementAndGet() == 0) {
                lock.close();
            }
            throw e;
        }
        if (waiting && lock.boundThread() != Thread.currentThread()) {
            // Released by another thread than the one that took it: that one is done with the lock. (The
            // releasing thread asking for the key again waits for its own transaction: not fail-fast here.)
            lock.unbindThread();
        }
        if (pending.decrementAndGet() == 0) {
            return lock.release();
        }
        // In the store until the unit of work completes; bound to its thread meanwhile, so asking for the key
        // again in the same transaction fails at once instead of waiting for itself.
        return held;
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            dev.baton.impl.logging.BatonLog.releaseFailed(lock.logKeys(), lock.key(), e);
        }
    }

    @Override
    public boolean isHeld() {
        return !released.get() && lock.isHeld();
    }

    @Override
    public void checkHeld() {
        if (released.get()) {
            throw new LockLostException(lock.key(), lock.fencingToken(), "it was released", null);
        }
        lock.checkHeld();
    }

    @Override
    public String key() {
        return lock.key();
    }

    @Override
    public long fencingToken() {
        return lock.fencingToken();
    }

    @Override
    public Instant validUntil() {
        return lock.validUntil();
    }

    @Override
    public void extend(Duration ttl) {
        if (released.get()) {
            throw new LockLostException(lock.key(), lock.fencingToken(), "it was released", null);
        }
        lock.extend(ttl);
    }

    @Override
    public CompletionStage<LockLostException> whenLost() {
        return lock.whenLost();
    }

    @Override
    public String toString() {
        if (released.get() && pending.get() > 0) {
            return "Lock[" + lock.key() + ", token=" + lock.fencingToken()
                    + ", RELEASED, in the store until its transaction completes]";
        }
        return released.get()
                ? "Lock[" + lock.key() + ", token=" + lock.fencingToken() + ", RELEASED]"
                : lock.toString();
    }
}
