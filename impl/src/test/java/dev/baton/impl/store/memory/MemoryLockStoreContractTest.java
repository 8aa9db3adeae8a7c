package dev.baton.impl.store.memory;

import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;

/**
 * The store contract suite against {@link MemoryLockStore}.
 *
 * <p>The memory store's backend is the instance itself, and a closed instance is gone with its locks, so
 * each call returns a new instance. The store does not declare {@code PERSISTENT}, so the rules that
 * need a second instance on the same backend (restart, two instances racing) are skipped: a new
 * {@code MemoryLockStore} starts empty with its counter at zero, which is right for a store that lives
 * and dies with its JVM.
 */
class MemoryLockStoreContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return new MemoryLockStore();
    }
}
