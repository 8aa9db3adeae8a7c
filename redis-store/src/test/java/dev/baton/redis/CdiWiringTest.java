package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.redis.testing.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end in Weld SE: {@code baton.store=redis} and {@code baton.redis.*} from MicroProfile Config (the
 * store found through its factory's service file), and the runtime's {@link Locks} on top; the lock is the
 * key's hash in Redis.
 */
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
class CdiWiringTest {

    static final String PREFIX = TestRedis.RUN_PREFIX + "cdi:";

    @Inject
    Locks locks;

    /** Read by the application's default MicroProfile Config, whose sources include the system properties. */
    static final Map<String, String> SETTINGS = Map.of(
            "baton.store",
            "redis",
            "baton.redis.url",
            TestRedis.url(),
            "baton.redis.key-prefix",
            PREFIX,
            "baton.redis.command-timeout",
            "3s");

    @BeforeAll
    static void configure() {
        SETTINGS.forEach(System::setProperty);
    }

    @AfterAll
    static void unconfigure() {
        SETTINGS.keySet().forEach(System::clearProperty);
    }

    @Test
    void locksLiveInRedis() {
        String key = "cdi:" + UUID.randomUUID();
        long token;
        try (Lock lock = locks.acquire(key)) {
            token = lock.fencingToken();
            assertThat(lock.isHeld()).isTrue();
            assertThat(recordToken(key)).as("the token in the key's hash").isEqualTo(Long.toString(token));
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire(key))
                            .join())
                    .as("another thread does not get it")
                    .isEmpty();
        }
        try (Lock again = locks.tryAcquire(key).orElseThrow()) {
            assertThat(again.fencingToken()).isGreaterThan(token);
        }
    }

    private static String recordToken(String key) {
        RedisClient client = RedisClient.create(TestRedis.url());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().hget(PREFIX + key, "t");
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
