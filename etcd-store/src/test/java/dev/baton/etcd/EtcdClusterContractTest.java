package dev.baton.etcd;

import dev.baton.etcd.testing.TestCluster;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The TCK's store contract on a cluster of three real etcd members: each store instance's calls go to whichever
 * member its client picks, so racers, leases and watches span members.
 */
class EtcdClusterContractTest extends LockStoreContract {

    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = new TestCluster();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Override
    protected LockStore createStore() {
        return EtcdLockStore.builder(cluster.endpoints())
                .root("/tck-cluster")
                .leaseTtl(Duration.ofSeconds(3))
                .build();
    }
}
