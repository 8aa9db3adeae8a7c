package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import org.junit.jupiter.api.Tag;

/** The TCK's store contract: every call a new store instance on the same table of the same database. */
@Tag("contract")
public abstract class ContractSuite extends LockStoreContract {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Override
    protected LockStore createStore() {
        return backend().store(backend().tableName("tck"));
    }
}
