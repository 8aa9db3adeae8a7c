package dev.baton.impl.cdi;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.Collection;
import java.util.Set;
import java.util.function.Consumer;

/** An application's {@code LockStore} bean: CDI owns its lifecycle, so the engine must not close it. */
final class BeanOwnedStore implements LockStore {

    private final LockStore bean;

    BeanOwnedStore(LockStore bean) {
        this.bean = bean;
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        return bean.acquire(key, owner, ttlMillis);
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return bean.acquire(key, owner, ttlMillis, maxWaitMillis);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        return bean.renew(key, owner, ttlMillis);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return bean.renew(key, owner, ttlMillis, maxWaitMillis);
    }

    @Override
    public boolean release(String key, String owner) {
        return bean.release(key, owner);
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis) {
        return bean.renewAll(leases, ttlMillis);
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        return bean.renewAll(leases, ttlMillis, maxWaitMillis);
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        return bean.onRelease(listener);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return bean.capabilities();
    }

    @Override
    public void close() {
        // The bean is closed by its own lifecycle.
    }

    @Override
    public String toString() {
        return bean.toString();
    }
}
