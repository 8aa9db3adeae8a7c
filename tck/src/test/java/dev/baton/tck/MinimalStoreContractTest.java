package dev.baton.tck;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;

/**
 * The whole suite against a correct store that declares no capability: not persistent, no remaining
 * lease, rejects NUL in keys, default {@code renewAll}, no notifications.
 */
class MinimalStoreContractTest extends LockStoreContract {

    private final TestLockStore.Backend backend = new TestLockStore.Backend();

    @Override
    protected LockStore createStore() {
        return new TestLockStore(
                backend, EnumSet.noneOf(StoreCapability.class), EnumSet.noneOf(TestLockStore.Flaw.class));
    }
}
