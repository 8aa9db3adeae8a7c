package dev.baton.bench;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.Collection;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A store shared by several engines of one JVM (the memory store standing for several instances): every
 * call is passed on except {@link #close()}, so one engine closing does not end the others' locks.
 */
final class Unclosed implements LockStore {

    private final LockStore store;

    Unclosed(LockStore store) {
        this.store = store;
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        return store.acquire(key, owner, ttlMillis);
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return store.acquire(key, owner, ttlMillis, maxWaitMillis);
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn) {
        return store.acquire(key, owner, ttlMillis, maxWaitMillis, turn);
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        return store.leaveTurn(key, waiter);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        return store.renew(key, owner, ttlMillis);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return store.renew(key, owner, ttlMillis, maxWaitMillis);
    }

    @Override
    public boolean release(String key, String owner) {
        return store.release(key, owner);
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis) {
        return store.renewAll(leases, ttlMillis);
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        return store.renewAll(leases, ttlMillis, maxWaitMillis);
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        return store.onRelease(listener);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return store.capabilities();
    }

    @Override
    public void close() {
        // the owner of the shared store closes it
    }
}
