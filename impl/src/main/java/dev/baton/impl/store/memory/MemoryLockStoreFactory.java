package dev.baton.impl.store.memory;

import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.util.Optional;
import java.util.Set;

/**
 * {@code baton.store=memory}: a {@link MemoryLockStore}, local to this JVM, shared by the managers that use the
 * default manager's store. Also the store when nothing is configured and the application has no {@code LockStore}
 * bean (with a warning).
 */
public final class MemoryLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "memory";

    @Override
    public String name() {
        return NAME;
    }

    /** @return none: a {@code baton.memory.*} key is a mistake */
    @Override
    public Optional<Set<String>> settingNames() {
        return Optional.of(Set.of());
    }

    @Override
    public LockStore create(StoreContext context) {
        return new MemoryLockStore();
    }
}
