package dev.baton.tck;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;

/** The whole suite against a correct store that declares every capability, on one shared backend. */
class ReferenceStoreContractTest extends LockStoreContract {

    private final TestLockStore.Backend backend = new TestLockStore.Backend();

    @Override
    protected LockStore createStore() {
        return new TestLockStore(backend, EnumSet.allOf(StoreCapability.class), EnumSet.noneOf(TestLockStore.Flaw.class));
    }
}
