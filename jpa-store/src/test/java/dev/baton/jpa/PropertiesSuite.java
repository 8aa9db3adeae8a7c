package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;

/**
 * The TCK's store properties beside the contract ({@link ContractSuite}): each sequence on a new store instance of
 * the contract suite's kind, on its table of the same database (each sequence with keys of its own). The database
 * keeps time, so every lease and turn outlives its sequence (the contract suite checks expiry).
 */
public abstract class PropertiesSuite extends StoreProperties {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    /** @return the mode of the stores under test */
    protected LockMode mode() {
        return LockMode.TABLE;
    }

    @Override
    protected LockStore createStore() {
        return ContractSuite.store(backend(), mode());
    }
}
