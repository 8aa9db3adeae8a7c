package dev.baton.tck;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;

/**
 * The whole suite against a correct store that declares every capability (but {@code ENDS_WITH_CONNECTION},
 * which excludes {@code PERSISTENT}: see {@link ConnectionBoundReferenceContractTest}), on one shared backend.
 */
class ReferenceStoreContractTest extends LockStoreContract {

    private final TestLockStore.Backend backend = new TestLockStore.Backend();

    @Override
    protected LockStore createStore() {
        return new TestLockStore(
                backend,
                EnumSet.complementOf(EnumSet.of(StoreCapability.ENDS_WITH_CONNECTION)),
                EnumSet.noneOf(TestLockStore.Flaw.class));
    }
}
