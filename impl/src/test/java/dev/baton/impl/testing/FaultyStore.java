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
    public final AtomicInteger renewCalls = new AtomicInteger();
    public final AtomicInteger acquireCalls = new AtomicInteger();

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        acquireCalls.incrementAndGet();
        failIfDown("acquire");
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
        return delegate.release(key, owner);
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
