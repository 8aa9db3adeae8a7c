package dev.baton.spi;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A store that passes every call on to another one: extend it and override what should differ (a
 * store shared by several lock managers that must not be closed by each, a store with faults switched
 * in for a test). Every operation of {@link LockStore} is forwarded as it is, so a new SPI method is not silently answered by its default here.
 */
public abstract class ForwardingLockStore implements LockStore {

    private final LockStore delegate;

    /**
     * @param delegate the store every call goes to
     */
    protected ForwardingLockStore(LockStore delegate) {
        this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
    }

    /** @return the store every call goes to */
    protected final LockStore delegate() {
        return delegate;
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        return delegate.acquire(acquisition);
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        return delegate.leaveTurn(key, waiter);
    }

    @Override
    public boolean renew(Renewal renewal) {
        return delegate.renew(renewal);
    }

    @Override
    public boolean release(String key, String owner) {
        return delegate.release(key, owner);
    }

    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        return delegate.handOver(owner, next);
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        return delegate.renewAll(leases, ttlMillis, maxWaitMillis);
    }

    @Override
    public Optional<Holder> inspect(String key) {
        return delegate.inspect(key);
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        return delegate.onRelease(listener);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
