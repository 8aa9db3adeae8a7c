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

    /** @return the mode of the stores under test */
    protected LockMode mode() {
        return LockMode.TABLE;
    }

    @Override
    protected LockStore createStore() {
        return store(backend(), mode());
    }

    /**
     * A new store instance of the contract suite: on the backend's shared factory and the suite's table of the mode.
     *
     * @param backend the database and provider
     * @param mode the mode
     * @return the store, connected on PostgreSQL
     */
    static JpaLockStore store(Backend backend, LockMode mode) {
        JpaLockStore store = backend.store(
                backend.sharedFactory(), backend.tableName(mode == LockMode.TABLE ? "tck" : "tcka"), mode);
        if (backend.database() == JpaDatabase.POSTGRESQL) {
            // Connected, so that it declares what it learns from its database (release notifications in
            // table mode) when the TCK reads its capabilities, and the notification rules run.
            store.database();
        }
        return store;
    }
}
