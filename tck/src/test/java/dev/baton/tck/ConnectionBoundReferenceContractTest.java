package dev.baton.tck;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;

/**
 * The whole suite against a correct store whose locks end with the instance that took them
 * ({@code ENDS_WITH_CONNECTION}, so not {@code PERSISTENT}), declaring every other capability.
 */
class ConnectionBoundReferenceContractTest extends LockStoreContract {

    private final TestLockStore.Backend backend = new TestLockStore.Backend();

    @Override
    protected LockStore createStore() {
        return new TestLockStore(
                backend,
                EnumSet.complementOf(EnumSet.of(StoreCapability.PERSISTENT)),
                EnumSet.noneOf(TestLockStore.Flaw.class));
    }
}
