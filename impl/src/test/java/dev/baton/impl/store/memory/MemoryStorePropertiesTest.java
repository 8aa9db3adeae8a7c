package dev.baton.impl.store.memory;

import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;
import dev.baton.tck.properties.TestClock;
import java.util.Optional;

/**
 * The TCK's store properties on {@link MemoryLockStore}, on a {@link TestClock}: the sequences step the clock, so
 * leases and turns expire within them, and the model checks remaining leases to the millisecond.
 */
class MemoryStorePropertiesTest extends StoreProperties {

    private final TestClock clock = new TestClock();

    @Override
    protected LockStore createStore() {
        return new MemoryLockStore(clock);
    }

    @Override
    protected Optional<TestClock> clock() {
        return Optional.of(clock);
    }
}
