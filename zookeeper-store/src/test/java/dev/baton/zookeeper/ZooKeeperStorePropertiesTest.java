package dev.baton.zookeeper;

import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;
import dev.baton.zookeeper.testing.TestZooKeeper;

/**
 * The TCK's store properties on the ZooKeeper server of {@link ZooKeeperContractTest} (in this JVM): each sequence
 * on a new store instance, with a session of its own, on the same server and root node (each sequence with keys of
 * its own). The store keeps real time, so every lease outlives its sequence (the contract suite checks expiry).
 */
class ZooKeeperStorePropertiesTest extends StoreProperties {

    /**
     * 100 sequences unless {@value #TRIES_PROPERTY} says otherwise: each sequence opens a session of its own, and the
     * default 150 took 20 to 28 s on two busy cores; 100 keep the class near two thirds of that.
     */
    @Override
    protected int tries() {
        return Integer.getInteger(TRIES_PROPERTY, 100);
    }

    @Override
    protected LockStore createStore() {
        return TestZooKeeper.store("properties");
    }
}
