package dev.baton.etcd;

import dev.baton.etcd.testing.TestEtcd;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;

/**
 * The TCK's store contract on a real etcd server: every call a new store instance, with a lease of its own, on the
 * same server and root.
 */
class EtcdContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return TestEtcd.store("tck");
    }
}
