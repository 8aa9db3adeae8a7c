package dev.baton.impl.store.memory;

import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;

/**
 * The store contract suite against {@link MemoryLockStore}.
 *
 * <p>The memory store's backend is the instance itself, so "a new instance on the same backend" is that
 * same instance: every call returns it (closing it is a no-op, and the suite closes each instance once).
 * The store does not declare {@code PERSISTENT}, so the restart rules are skipped: a new
 * {@code MemoryLockStore} starts empty with its counter at zero, which is right for a store that lives
 * and dies with its JVM.
 */
class MemoryLockStoreContractTest extends LockStoreContract {

    private final MemoryLockStore store = new MemoryLockStore();

    @Override
    protected LockStore createStore() {
        return store;
    }
}
