package dev.baton.mongodb;

import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;

/**
 * The TCK's store properties on the in-process server of {@link MongoContractTest} (mongo-java-server, in this JVM):
 * each sequence on a new store instance, with a client of its own, on the same server, database and collection (each
 * sequence with keys of its own). The store keeps real time, so every lease and turn outlives its sequence (the
 * contract suite checks expiry).
 */
class MongoStorePropertiesTest extends StoreProperties {

    /**
     * 100 sequences unless {@value #TRIES_PROPERTY} says otherwise: each sequence opens a client of its own, and the
     * default 150 took 12 to 25 s on two busy cores; 100 keep the class near two thirds of that.
     */
    @Override
    protected int tries() {
        return Integer.getInteger(TRIES_PROPERTY, 100);
    }

    @Override
    protected LockStore createStore() {
        return TestMongo.store("properties");
    }
}
