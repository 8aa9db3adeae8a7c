package dev.baton.zookeeper;

import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import dev.baton.zookeeper.testing.TestEnsemble;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The TCK's store contract on an ensemble of three real ZooKeeper servers: each store instance's session on
 * whichever server its client picks, so racers and their watches span servers.
 */
class ZooKeeperEnsembleContractTest extends LockStoreContract {

    private static TestEnsemble ensemble;

    @BeforeAll
    static void start() throws Exception {
        ensemble = new TestEnsemble();
    }

    @AfterAll
    static void stop() throws Exception {
        ensemble.close();
    }

    @Override
    protected LockStore createStore() {
        return ZooKeeperLockStore.builder(ensemble.connect())
                .root("/tck-ensemble")
                .sessionTimeout(Duration.ofSeconds(6))
                .build();
    }
}
