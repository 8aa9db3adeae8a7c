package dev.baton.zookeeper;

import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import dev.baton.zookeeper.testing.TestZooKeeper;

/**
 * The TCK's store contract on a real ZooKeeper server (in this JVM): every call a new store instance, with a session
 * of its own, on the same server and root node.
 */
class ZooKeeperContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return TestZooKeeper.store("tck");
    }
}
