package dev.baton.bench;

import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;
import java.util.Set;

/**
 * A store whose release notification is hidden from its engine, which then waits by polling alone: the
 * {@code engine-poll} hand-off, beside {@code engine} on the same store.
 */
final class Unnotified extends ForwardingLockStore {

    Unnotified(LockStore store) {
        super(store);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        Set<StoreCapability> declared = EnumSet.noneOf(StoreCapability.class);
        declared.addAll(super.capabilities());
        declared.remove(StoreCapability.RELEASE_NOTIFICATION);
        return declared;
    }
}
