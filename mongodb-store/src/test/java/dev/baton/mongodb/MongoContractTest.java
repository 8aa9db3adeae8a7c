package dev.baton.mongodb;

import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;

/**
 * The TCK's store contract on the in-process server (mongo-java-server, in this JVM): every call a new store
 * instance, with a client of its own, on the same server, database and collection.
 */
class MongoContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return TestMongo.store("tck");
    }
}
