package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.etcd.testing.EtcdServer;
import dev.baton.etcd.testing.TestCluster;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Locks on a cluster of three members that loses its leader: the lock survives the election (its lease is kept by
 * the new leader), nobody else gets the key meanwhile, and the next token is above every earlier one although the
 * leader changed (one revision sequence, replicated by Raft).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClusterTest {

    private static final long TTL = 60_000;

    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = new TestCluster();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static EtcdLockStore store() {
        return EtcdLockStore.builder(cluster.endpoints())
                .root("/cluster")
                .leaseTtl(Duration.ofSeconds(9))
                .build();
    }

    @Test
    void aLockSurvivesTheLossOfTheLeaderAndTheNextTokenIsAboveIt() throws Exception {
        String key = "cluster:" + UUID.randomUUID();
        try (EtcdLockStore holder = store();
                EtcdLockStore other = store()) {
            AcquireResult first = holder.acquire(Acquisition.of(key, "holder", TTL, 5_000));
            assertThat(first.isAcquired()).as("the holder's acquisition").isTrue();

            EtcdServer killed = cluster.killLeader();
            try {
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertThat(holder.renew(new Renewal(key, "holder", TTL, 2_000)))
                                .as("the holder's renewal after the election")
                                .isTrue());
                assertThat(other.acquire(Acquisition.of(key, "other", TTL, 2_000))
                                .isAcquired())
                        .as("another instance while the holder holds, after the election")
                        .isFalse();
                assertThat(holder.release(key, "holder"))
                        .as("the holder's release")
                        .isTrue();
                AcquireResult next = other.acquire(Acquisition.of(key, "other", TTL, 2_000));
                assertThat(next.isAcquired())
                        .as("another instance after the release")
                        .isTrue();
                assertThat(next.fencingToken())
                        .as("the token after the election")
                        .isGreaterThan(first.fencingToken());
            } finally {
                killed.start();
                killed.awaitUp(30);
            }
        }
    }
}
