package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.redis.testing.TestRedis.EmbeddedRedis;
import dev.baton.spi.Acquisition;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A password and a database number from the URL reach the server: on an embedded Redis of its own with
 * {@code requirepass}, the store's records land in the database the URL names, and a wrong password fails
 * the operation with a {@link LockStoreException} that does not print it.
 */
class ConnectionSettingsTest {

    private static final String PASSWORD = "s3cret-pw";
    private static int port;
    private static EmbeddedRedis server;

    @BeforeAll
    static void start() {
        port = FreePorts.pick();
        server = EmbeddedRedis.start(port, "password", "requirepass " + PASSWORD);
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void passwordAndDatabaseNumberFromTheUrl() {
        try (RedisLockStore store = RedisLockStore.builder("redis://:" + PASSWORD + "@127.0.0.1:" + port + "/3")
                .keyPrefix("settings:")
                .build()) {
            assertThat(store.acquire(Acquisition.of("k", "owner-1", 60_000)).isAcquired())
                    .isTrue();
        }
        RedisClient client = RedisClient.create("redis://:" + PASSWORD + "@127.0.0.1:" + port);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            assertThat(connection.sync().exists("settings:k"))
                    .as("in database 0")
                    .isZero();
            connection.sync().select(3);
            assertThat(connection.sync().exists("settings:k"))
                    .as("in database 3")
                    .isOne();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void aWrongPasswordFailsTheOperationWithoutPrintingIt() {
        try (RedisLockStore store = RedisLockStore.builder("redis://:wrong-pw@127.0.0.1:" + port)
                .commandTimeout(Duration.ofSeconds(2))
                .build()) {
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", "owner-1", 60_000)))
                    .isInstanceOf(LockStoreException.class)
                    .satisfies(e -> assertThat(e.getCause()).isNotNull())
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("wrong-pw"));
        }
    }
}
