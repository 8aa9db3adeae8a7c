package dev.baton.impl.runtime;

import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.LockStore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One store used by the engines of one or more lock managers. Each engine gets its own {@link #handle()}
 * and closes it when it stops (an engine closes its store); the store itself is closed once, when the
 * last handle is, so no engine's releases reach a closed store. An application's {@code LockStore} bean
 * is never closed here: CDI owns its lifecycle.
 */
public final class SharedStore {

    private final LockStore store;
    private final boolean owned;
    private int open;
    private boolean closed;

    /**
     * @param store the store
     * @param owned whether Baton created it (and so closes it)
     */
    public SharedStore(LockStore store, boolean owned) {
        this.store = store;
        this.owned = owned;
    }

    /**
     * @return a view of the store for one engine
     * @throws IllegalStateException if the store was closed already
     */
    public synchronized LockStore handle() {
        if (closed) {
            throw new IllegalStateException("The store " + store + " is closed");
        }
        open++;
        return new Handle();
    }

    /**
     * @return whether every handle was closed, and with them the store
     */
    public synchronized boolean closed() {
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
    private final class Handle extends ForwardingLockStore {
        private final AtomicBoolean handleClosed = new AtomicBoolean();

        Handle() {
            super(store);
        }

        @Override
        public void close() {
            if (handleClosed.compareAndSet(false, true)) {
                handleClosed();
            }
        }
    }
}
