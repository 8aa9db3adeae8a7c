package dev.baton.impl.cdi;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One store used by the engines of one or more lock managers. Each engine gets its own {@link #handle()}
 * and closes it when it stops (an engine closes its store); the store itself is closed once, when the
 * last handle is, so no engine's releases reach a closed store. An application's {@code LockStore} bean
 * is never closed here: CDI owns its lifecycle.
 */
final class SharedStore {

    private final LockStore store;
    private final boolean owned;
    private int open;
    private boolean closed;

    /**
     * @param store the store
     * @param owned whether Baton created it (and so closes it)
     */
    SharedStore(LockStore store, boolean owned) {
        this.store = store;
        this.owned = owned;
    }

    /**
     * @return a view of the store for one engine
     * @throws IllegalStateException if the store was closed already
     */
    synchronized LockStore handle() {
        if (closed) {
            throw new IllegalStateException("The store " + store + " is closed");
        }
        open++;
        return new Handle();
    }

    /**
     * @return whether every handle was closed, and with them the store
     */
    synchronized boolean closed() {
        return closed;
    }

    private void handleClosed() {
        synchronized (this) {
            if (--open > 0 || closed) {
                return;
            }
            closed = true;
        }
        if (owned) {
            store.close();
        }
    }

    @Override
    public String toString() {
        return store.toString();
    }

    /** One engine's view: everything goes to the store, but closing only counts this engine out. */
    private final class Handle implements LockStore {
        private final AtomicBoolean handleClosed = new AtomicBoolean();

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
            if (handleClosed.compareAndSet(false, true)) {
                handleClosed();
            }
        }

        @Override
        public String toString() {
            return store.toString();
        }
    }
}
