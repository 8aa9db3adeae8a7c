package com.example.lockstore;

import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;

/**
 * The store contract suite against {@link MapLockStore}: every call a new instance on the same backend,
 * as an application restart or a second node would be.
 */
class MapLockStoreContractTest extends LockStoreContract {

    private static final MapLockStore.Backend BACKEND = new MapLockStore.Backend();

    @Override
    protected LockStore createStore() {
        return new MapLockStore(BACKEND);
    }
}
