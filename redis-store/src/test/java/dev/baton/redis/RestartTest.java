package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.redis.testing.TestEngines;
import dev.baton.redis.testing.TestRedis.EmbeddedRedis;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis restarts while locks are held, on the same port, with an empty data set (no persistence), or with an
 * older snapshot (what a replica that missed the last writes has after a fail-over): no token handed out
 * afterwards is lower than one handed out before, and the holders of the lost locks are told on their next
 * renewal — the old holder can neither renew nor release, so a new holder is never joined by it. Its own
 * embedded Redis 6.2 (a server given by {@code BATON_TEST_REDIS_URL} cannot be restarted by the test).
 */
class RestartTest {

    private static final int KEYS = 12;
    private static final int CYCLES_PER_KEY = 25;

    private int port;
    private EmbeddedRedis server;
    private final List<RedisLockStore> stores = new ArrayList<>();

    @BeforeEach
    void start() {
        port = FreePorts.pick();
        server = EmbeddedRedis.start(port, "restart");
    }

    @AfterEach
    void stop() {
        stores.forEach(RedisLockStore::close);
        server.stop();
    }

    private RedisLockStore store() {
        RedisLockStore store = RedisLockStore.builder("redis://127.0.0.1:" + port)
                .keyPrefix("restart:")
                .commandTimeout(Duration.ofSeconds(2))
                .build();
        stores.add(store);
        return store;
    }

    private void restart() {
        server.stop();
        server = EmbeddedRedis.start(port, "restart");
    }

    private static String owner() {
        return "o-" + UUID.randomUUID();
    }

    /**
     * Many acquire/release cycles from two instances; then half the keys held.
     *
     * @param floor tokens every new token of the key must be above
     * @return the highest token per key
     */
    private static Map<String, Long> busyKeys(
            RedisLockStore a, RedisLockStore b, Map<String, String> holders, Map<String, Long> floor) {
        Map<String, Long> highest = new HashMap<>(floor);
        for (int k = 0; k < KEYS; k++) {
            String key = "key-" + k;
            for (int cycle = 0; cycle < CYCLES_PER_KEY; cycle++) {
                RedisLockStore store = cycle % 2 == 0 ? a : b;
                String owner = owner();
                long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
                assertThat(token).isGreaterThan(highest.getOrDefault(key, 0L));
                highest.put(key, token);
                assertThat(store.release(key, owner)).isTrue();
            }
            if (k % 2 == 0) {
                String owner = owner();
                highest.put(key, a.acquire(Acquisition.of(key, owner, 600_000)).fencingToken());
                holders.put(key, owner);
            }
        }
        return highest;
    }

    /** After the data is gone: lost locks are reported lost, every new token is above every old one. */
    private static void assertNothingGoesBack(
            RedisLockStore a, RedisLockStore b, Map<String, Long> before, Map<String, String> holders) {
        // The store reconnects by itself (Lettuce); until then a call fails like on any outage.
        String probe = holders.keySet().iterator().next();
        boolean renewed = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .ignoreExceptionsInstanceOf(LockStoreException.class)
                .until(() -> a.renew(Renewal.of(probe, holders.get(probe), 600_000)), r -> true);
        assertThat(renewed).as("the renewal of a lock whose record is gone").isFalse();
        long highestBefore =
                before.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        for (Map.Entry<String, String> held : holders.entrySet()) {
            assertThat(a.renew(Renewal.of(held.getKey(), held.getValue(), 600_000)))
                    .as("renewal of %s after the restart", held.getKey())
                    .isFalse();
        }
        for (String key : before.keySet()) {
            String owner = owner();
            AcquireResult taken = b.acquire(Acquisition.of(key, owner, 60_000));
            assertThat(taken.isAcquired()).as("%s after the restart", key).isTrue();
            assertThat(taken.fencingToken())
                    .as("the first token of %s after the restart", key)
                    .isGreaterThan(before.get(key))
                    .isGreaterThan(highestBefore);
            String oldHolder = holders.get(key);
            if (oldHolder != null) {
                assertThat(a.renew(Renewal.of(key, oldHolder, 600_000)))
                        .as("the old holder of %s renews the new holder's lock", key)
                        .isFalse();
                assertThat(a.release(key, oldHolder))
                        .as("the old holder of %s releases the new holder's lock", key)
                        .isFalse();
            }
            assertThat(b.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                    .as("%s has one holder", key)
                    .isFalse();
            assertThat(b.release(key, owner)).isTrue();
            assertThat(b.acquire(Acquisition.of(key, owner(), 1)).fencingToken())
                    .isGreaterThan(taken.fencingToken());
        }
    }

    @Test
    void afterARestartWithAnEmptyDataSetTokensNeverGoBackAndHeldLocksAreLost() {
        RedisLockStore a = store();
        RedisLockStore b = store();
        Map<String, String> holders = new HashMap<>();
        Map<String, Long> before = busyKeys(a, b, holders, Map.of());

        restart();

        assertNothingGoesBack(a, b, before, holders);
    }

    @Test
    void afterAFailOverToAnOlderSnapshotTokensNeverGoBack() {
        RedisLockStore a = store();
        RedisLockStore b = store();
        Map<String, String> early = new HashMap<>();
        busyKeys(a, b, early, Map.of());
        Map<String, Long> missed;
        RedisClient admin = RedisClient.create("redis://127.0.0.1:" + port);
        try (StatefulRedisConnection<String, String> connection = admin.connect()) {
            connection.sync().save(); // what the "replica" has: everything up to here
            for (Map.Entry<String, String> held : early.entrySet()) {
                assertThat(a.release(held.getKey(), held.getValue())).isTrue();
            }
            missed = busyKeys(a, b, new HashMap<>(), Map.of()); // the writes the "replica" misses
            try {
                connection.sync().shutdown(false); // stops without saving: the snapshot above is loaded again
            } catch (io.lettuce.core.RedisException e) {
                // SHUTDOWN closes the connection without an answer
            }
        } finally {
            admin.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        server.stop();
        server = EmbeddedRedis.start(port, "restart");
        RedisLockStore c = store();
        // The snapshot brings back the early holders' locks: they block until released or expired, never twice.
        for (Map.Entry<String, String> held : early.entrySet()) {
            boolean back = await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(LockStoreException.class)
                    .until(() -> c.renew(Renewal.of(held.getKey(), held.getValue(), 600_000)), r -> true);
            assertThat(back).as("a lock of the snapshot is back").isTrue();
            assertThat(c.release(held.getKey(), held.getValue())).isTrue();
        }
        // Every token after the fail-over is above every token of the missed writes, key by key.
        assertThat(busyKeys(c, b, new HashMap<>(), missed)).hasSize(KEYS);
    }

    @Test
    void anEngineLosesItsLockWhenRedisRestartsEmptyAndTheNextHolderGetsAHigherToken() {
        try (LockEngine first = TestEngines.engine(store(), 1_500, 5_000);
                LockEngine second = TestEngines.engine(store(), 1_500, 5_000)) {
            HeldLock held = first.acquire("engine-key", 1_500, 5_000, true);

            restart();

            await().atMost(Duration.ofSeconds(10)).until(() -> !held.isHeld());
            assertThat(held.whenLost().toCompletableFuture()).isCompleted();
            HeldLock next = second.acquire("engine-key", 1_500, 5_000, true);
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            next.close();
        }
    }
}
