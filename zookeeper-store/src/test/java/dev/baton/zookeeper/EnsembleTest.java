package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.zookeeper.testing.TestEnsemble;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Locks on an ensemble of three servers that loses its leader: the lock survives the election (its session moves to
 * another server), nobody else gets the key meanwhile, and the next token is above every earlier one although the
 * leader changed (a new epoch in the transaction ids).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EnsembleTest {

    private static final long TTL = 60_000;

    private static TestEnsemble ensemble;

    @BeforeAll
    static void start() throws Exception {
        ensemble = new TestEnsemble();
    }

    @AfterAll
    static void stop() throws Exception {
        ensemble.close();
    }

    private static ZooKeeperLockStore store() {
        return ZooKeeperLockStore.builder(ensemble.connect())
                .root("/ensemble")
                .sessionTimeout(Duration.ofSeconds(9))
                .build();
    }

    @Test
    void aLockSurvivesTheLossOfTheLeaderAndTheNextTokenIsAboveIt() throws Exception {
        String key = "ensemble:" + UUID.randomUUID();
        try (ZooKeeperLockStore holder = store();
                ZooKeeperLockStore other = store()) {
            AcquireResult first = holder.acquire(Acquisition.of(key, "holder", TTL, 5_000));
            assertThat(first.isAcquired()).as("the holder's acquisition").isTrue();

            InstanceSpec killed = ensemble.killLeader();
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
                assertThat(next.fencingToken() >>> 32)
                        .as("the epoch of the token (its high 32 bits): a new leader, a new epoch")
                        .isGreaterThan(first.fencingToken() >>> 32);
            } finally {
                ensemble.restart(killed);
            }
        }
    }
}
