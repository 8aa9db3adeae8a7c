package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.redis.testing.TestRedis;
import dev.baton.redis.testing.TestRedis.EmbeddedRedis;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.tck.LogCapture;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Redis that may evict keys (issue 33, item 5): under {@code allkeys-*} a full Redis drops any key, under
 * {@code volatile-*} the keys with an expiry, which are exactly the lock records, so a held lock's record
 * vanishes and a second owner acquires the key during the first one's lease. The store reads the policy
 * when it connects ({@code CONFIG GET}, else {@code INFO memory} where {@code CONFIG} is renamed away as on
 * managed Redis) and refuses an evicting one. Each test runs an embedded Redis 6.2 of its own, with
 * {@code maxmemory 2mb}.
 */
class EvictionPolicyTest {

    private final List<EmbeddedRedis> servers = new ArrayList<>();
    private final List<RedisLockStore> stores = new ArrayList<>();
    private LogCapture log;

    @BeforeEach
    void listen() {
        log = LogCapture.start(RedisLockStore.class.getName());
    }

    @AfterEach
    void stop() {
        log.close();
        stores.forEach(RedisLockStore::close);
        servers.forEach(EmbeddedRedis::stop);
    }

    private List<String> warnings(String id) {
        return log.messages(Level.ALL, id);
    }

    /** @return the URL of a new embedded Redis with maxmemory 2mb and these settings */
    private String server(String... settings) {
        int port = FreePorts.pick();
        List<String> all = new ArrayList<>(List.of("maxmemory 2mb"));
        all.addAll(List.of(settings));
        servers.add(EmbeddedRedis.start(port, "eviction", all.toArray(String[]::new)));
        return "redis://127.0.0.1:" + port;
    }

    private RedisLockStore store(RedisLockStore.Builder builder) {
        return store(builder.keyPrefix("eviction:").build());
    }

    private RedisLockStore store(RedisLockStore store) {
        stores.add(store);
        return store;
    }

    private static String owner() {
        return "o-" + UUID.randomUUID();
    }

    @ParameterizedTest
    @ValueSource(strings = {"allkeys-lru", "volatile-lru", "volatile-ttl", "allkeys-random"})
    void anEvictingPolicyIsRefusedAtConnectNamingThePolicyAndTheFix(String policy) {
        RedisLockStore store = store(RedisLockStore.builder(server("maxmemory-policy " + policy)));

        assertThatThrownBy(() -> store.acquire(Acquisition.of("k", owner(), 60_000)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("maxmemory-policy " + policy)
                .hasMessageContaining("maxmemory-policy noeviction")
                .hasMessageContaining("allow-eviction");
    }

    /**
     * Shared leases are under the same protection: the policy is checked when the store connects, whatever the
     * operation, and a shared lease lives in its key's one record, which Redis would evict whole or not at all.
     */
    @Test
    void aSharedAcquisitionIsRefusedOnAnEvictingRedisAsAnExclusiveOneIs() {
        RedisLockStore store = store(RedisLockStore.builder(server("maxmemory-policy volatile-lru")));

        assertThatThrownBy(() -> store.acquire(
                        new Acquisition("k", owner(), 60_000, LockArguments.STORE_BOUND, null, Acquisition.UNLIMITED)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("maxmemory-policy volatile-lru");
    }

    @Test
    void withConfigRenamedAwayThePolicyIsReadFromInfo() {
        RedisLockStore store =
                store(RedisLockStore.builder(server("maxmemory-policy allkeys-lru", "rename-command CONFIG \"\"")));

        assertThatThrownBy(() -> store.acquire(Acquisition.of("k", owner(), 60_000)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("maxmemory-policy allkeys-lru");
    }

    @Test
    void noevictionStartsCleanly() {
        RedisLockStore limited = store(RedisLockStore.builder(server("maxmemory-policy noeviction")));
        assertThat(limited.acquire(Acquisition.of("k", owner(), 60_000)).isAcquired())
                .isTrue();
        // and the shared test Redis (embedded, or the machine's Redis 7), which runs with noeviction
        RedisLockStore shared = TestRedis.store("eviction-" + UUID.randomUUID());
        stores.add(shared);
        String owner = owner();
        assertThat(shared.acquire(Acquisition.of("k", owner, 60_000)).isAcquired())
                .isTrue();
        assertThat(shared.release("k", owner)).isTrue();
    }

    @Test
    void withConfigRenamedAwayAndNoEvictionTheStoreStartsCleanly() {
        RedisLockStore store =
                store(RedisLockStore.builder(server("maxmemory-policy noeviction", "rename-command CONFIG \"\"")));

        assertThat(store.acquire(Acquisition.of("k", owner(), 60_000)).isAcquired())
                .isTrue();
        assertThat(warnings("BATON-REDIS-00")).isEmpty();
    }

    @Test
    void aPolicyNeitherConfigNorInfoTellsIsWarnedOfAndTheStoreStarts() {
        RedisLockStore store = store(RedisLockStore.builder(
                server("maxmemory-policy allkeys-lru", "rename-command CONFIG \"\"", "rename-command INFO \"\"")));

        assertThat(store.acquire(Acquisition.of("k", owner(), 60_000)).isAcquired())
                .isTrue();
        assertThat(warnings("BATON-REDIS-005")).singleElement().asString().contains("unknown");
    }

    /**
     * The probe's reproduction, on a store told that eviction is accepted: it starts with a warning, and a
     * full Redis under volatile-lru drops the held lock's record (the one key with an expiry) so that a second
     * owner acquires during the first one's lease: what the refusal above prevents.
     */
    @Test
    void withAllowEvictionTheStoreStartsWarnedAndAFullRedisDropsAHeldLock() {
        String url = server("maxmemory-policy volatile-lru");
        RedisLockStore store = store(RedisLockStore.builder(url).allowEviction(true));
        String first = owner();
        assertThat(store.acquire(Acquisition.of("k", first, 600_000)).isAcquired())
                .isTrue();
        assertThat(warnings("BATON-REDIS-004")).singleElement().asString().contains("volatile-lru", "allow-eviction");

        RedisClient client = RedisClient.create(url);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            String kilobyte = "x".repeat(1024);
            int written = 0;
            try {
                for (; written < 5_000; written++) {
                    connection.sync().set("filler:" + written, kilobyte);
                }
            } catch (RedisCommandExecutionException e) {
                // OOM: nothing with an expiry is left to evict
                assertThat(e.getMessage()).contains("OOM");
            }
            assertThat(connection.sync().exists("eviction:k"))
                    .as("the lock record after writing %d KB beside it", written)
                    .isZero();
            // the other data shrinks again (a cache's keys are deleted), so writes succeed again
            for (int i = 0; i < written; i++) {
                connection.sync().unlink("filler:" + i);
            }
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        assertThat(store.acquire(Acquisition.of("k", owner(), 600_000)).isAcquired())
                .as("a second owner during the first one's 10-minute lease")
                .isTrue();
        assertThat(store.renew(Renewal.of("k", first, 600_000))).isFalse();
    }

    @Test
    void allowEvictionIsReadFromConfiguration() {
        // the factory's key reaches the builder: the same Redis, refused without it, accepted with it
        String url = server("maxmemory-policy allkeys-lru");
        RedisLockStore refused = store(RedisLockStoreFactoryTest.store(url, java.util.Map.of()));
        assertThatThrownBy(() -> refused.acquire(Acquisition.of("k", owner(), 60_000)))
                .isInstanceOf(LockConfigurationException.class);
        RedisLockStore allowed =
                store(RedisLockStoreFactoryTest.store(url, java.util.Map.of("allow-eviction", "true")));
        assertThat(allowed.acquire(Acquisition.of("k", owner(), 60_000)).isAcquired())
                .isTrue();
    }
}
