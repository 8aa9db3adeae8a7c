package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.redis.testing.TestCluster;
import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The TCK's store contract on a Redis Cluster of three masters (embedded Redis 6.2 in cluster mode), through
 * Lettuce's cluster client; and a batch renewal whose keys fall in many slots on all three nodes. Runs in a
 * Surefire execution of its own ({@code redis-cluster}, reports in {@code target/surefire-reports-cluster}), so
 * its results stay apart from the single server's; skip it with {@code -Dbaton.test.redis.cluster.skip=true}.
 */
class RedisClusterContract extends LockStoreContract {

    static TestCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = TestCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected LockStore createStore() {
        return RedisLockStore.builder(cluster.seedUrl())
                .cluster(true)
                .keyPrefix(TestRedis.RUN_PREFIX + "cluster:")
                .build();
    }

    @Test
    void aBatchRenewalAcrossSlotsOfEveryNodeRenewsExactlyTheHeldLeases() {
        try (LockStore store = createStore()) {
            List<Lease> held = new ArrayList<>();
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 300; i++) {
                String key = "batch:" + UUID.randomUUID();
                String owner = "o-" + i;
                assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                        .isTrue();
                held.add(new Lease(key, owner));
                slots.add(slot(key));
            }
            assertThat(slots).as("slots of the keys").hasSizeGreaterThan(200);
            assertOnEveryNode(slots);
            List<Lease> asked = new ArrayList<>(held);
            Lease stranger = new Lease(held.get(0).key(), "not-the-owner");
            asked.add(stranger);
            for (int i = 0; i < 50; i++) {
                assertThat(store.release(held.get(i).key(), held.get(i).owner()))
                        .isTrue();
            }

            Set<Lease> renewed = store.renewAll(asked, 60_000, 2_000);

            assertThat(renewed).containsExactlyInAnyOrderElementsOf(held.subList(50, held.size()));
            held.subList(50, held.size()).forEach(l -> store.release(l.key(), l.owner()));
        }
    }

    /**
     * Shared leases on a cluster: keys in slots of every node, braces in them or not (a key's one hash lands where
     * its name sends it, hash tag or none), each with a limit of 2, renewed in one batch across slots.
     */
    @Test
    void sharedLeasesOnKeysOfEveryNodeKeepTheirLimitAndRenewInOneBatch() {
        String[] shapes = {"plain:", "{tag}:", "open{:", "}{:", "{}:"};
        try (LockStore store = createStore()) {
            List<Lease> held = new ArrayList<>();
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 60; i++) {
                String key = shapes[i % shapes.length] + UUID.randomUUID();
                slots.add(slot(key));
                for (String owner : List.of("a-" + i, "b-" + i)) {
                    assertThat(store.acquire(shared(key, owner)).isAcquired())
                            .as("%s's permit of %s", owner, key)
                            .isTrue();
                    held.add(new Lease(key, owner));
                }
                assertThat(store.acquire(shared(key, "c-" + i)).isAcquired())
                        .as("a third permit of %s", key)
                        .isFalse();
                assertThat(store.acquire(Acquisition.of(key, "w-" + i, 60_000)).isAcquired())
                        .as("the lock of %s", key)
                        .isFalse();
            }
            assertOnEveryNode(slots);
            List<Lease> asked = new ArrayList<>(held);
            asked.add(new Lease(held.get(0).key(), "not-an-owner"));

            assertThat(store.renewAll(asked, 60_000, 2_000)).containsExactlyInAnyOrderElementsOf(held);
            for (Lease lease : held) {
                assertThat(store.release(lease.key(), lease.owner())).isTrue();
            }
            assertThat(store.acquire(Acquisition.of(held.get(0).key(), "w", 60_000))
                            .isAcquired())
                    .isTrue();
        }
    }

    private static int slot(String key) {
        return SlotHash.getSlot((TestRedis.RUN_PREFIX + "cluster:" + key).getBytes(StandardCharsets.UTF_8));
    }

    /** The three masters split the slots in thirds. */
    private static void assertOnEveryNode(Set<Integer> slots) {
        assertThat(slots)
                .as("keys on every third of the slots")
                .anyMatch(s -> s < 5461)
                .anyMatch(s -> s > 10922)
                .anyMatch(s -> s > 5461 && s < 10922);
    }

    private static Acquisition shared(String key, String owner) {
        return new Acquisition(key, owner, 60_000, LockArguments.STORE_BOUND, null, 2);
    }

    /** Every primary's policy is read, not just the seed's: one evicting primary is enough to drop locks. */
    @Test
    void anEvictingPolicyOnAPrimaryOtherThanTheSeedRefusesTheStoreNamingIt() {
        int port = cluster.ports().get(2);
        setPolicy(port, "volatile-lru");
        try (LockStore store = createStore()) {
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", "o-" + UUID.randomUUID(), 60_000)))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining(
                            "127.0.0.1:" + port + " (cluster primary) runs with maxmemory-policy volatile-lru")
                    .hasMessageContaining("volatile-*");
        } finally {
            setPolicy(port, "noeviction");
        }
        try (LockStore store = createStore()) {
            String owner = "o-" + UUID.randomUUID();
            assertThat(store.acquire(Acquisition.of("k", owner, 60_000)).isAcquired())
                    .isTrue();
            assertThat(store.release("k", owner)).isTrue();
        }
    }

    private static void setPolicy(int port, String policy) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().configSet("maxmemory-policy", policy);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
