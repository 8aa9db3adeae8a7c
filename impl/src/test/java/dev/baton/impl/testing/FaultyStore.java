package dev.baton.impl.testing;

import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

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
    /** When set before the engine is made, the store offers release notifications, and subscribing runs this. */
    public volatile Function<Consumer<String>, AutoCloseable> subscriber;
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
    public AutoCloseable onRelease(Consumer<String> listener) {
        Function<Consumer<String>, AutoCloseable> s = subscriber;
        return s == null ? LockStore.super.onRelease(listener) : s.apply(listener);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        if (subscriber == null) {
            return delegate.capabilities();
        }
        Set<StoreCapability> capabilities = EnumSet.copyOf(delegate.capabilities());
        capabilities.add(StoreCapability.RELEASE_NOTIFICATION);
        return capabilities;
    }

    private void failIfDown(String operation) {
        if (down) {
            throw new LockStoreException(operation + " failed", new java.net.ConnectException("Connection refused (test: store down)"));
        }
    }
}
