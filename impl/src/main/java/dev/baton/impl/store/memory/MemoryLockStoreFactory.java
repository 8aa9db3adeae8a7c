package dev.baton.impl.store.memory;

import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;

/** {@code baton.store=memory} (the default): a {@link MemoryLockStore} per lock manager. */
public final class MemoryLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "memory";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LockStore create(StoreContext context) {
        return new MemoryLockStore();
    }
}
