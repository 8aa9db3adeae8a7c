package dev.baton.impl.testing;

import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real {@link MemoryLockStore} with switchable faults, to show how the runtime reacts to a store that
 * goes down or disowns a lock. Everything not switched off is the real store.
 */
public final class FaultyStore implements LockStore {

    private final MemoryLockStore delegate = new MemoryLockStore();
    public volatile boolean down;
    public volatile boolean renewAnswersFalse;
    /** Thrown by acquire instead of working, when set: an exception of the store's own, not a LockStoreException. */
    public volatile RuntimeException acquireFailure;
    /** Thrown by release after the real release, when set. */
    public volatile RuntimeException releaseFailure;
    /** Run at the start of every acquire, when set: to hold a caller inside the store. */
    public volatile Runnable onAcquire;
    public final AtomicInteger renewCalls = new AtomicInteger();
    public final AtomicInteger acquireCalls = new AtomicInteger();

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        acquireCalls.incrementAndGet();
        Runnable hook = onAcquire;
        if (hook != null) {
            hook.run();
        }
        failIfDown("acquire");
        RuntimeException failure = acquireFailure;
        if (failure != null) {
            throw failure;
        }
        return delegate.acquire(key, owner, ttlMillis);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        renewCalls.incrementAndGet();
        failIfDown("renew");
        return !renewAnswersFalse && delegate.renew(key, owner, ttlMillis);
    }

    @Override
    public boolean release(String key, String owner) {
        failIfDown("release");
        boolean released = delegate.release(key, owner);
        RuntimeException failure = releaseFailure;
        if (failure != null) {
            throw failure;
        }
        return released;
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return delegate.capabilities();
    }

    private void failIfDown(String operation) {
        if (down) {
            throw new LockStoreException(operation + " failed", new java.net.ConnectException("Connection refused (test: store down)"));
        }
    }
}
