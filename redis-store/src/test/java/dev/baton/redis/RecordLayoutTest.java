package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.redis.internal.Scripts;
import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.Acquisition;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the store leaves in Redis, as the README describes it: one hash per key, named by the prefix and the key's
 * UTF-8 bytes exactly; the last token kept after a release; the record removed by Redis 10 s after nothing in
 * it is live; a script Redis forgot is sent again.
 */
class RecordLayoutTest {

    private static final String PREFIX = TestRedis.RUN_PREFIX + "layout:";

    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> connection;
    private RedisLockStore store;

    @BeforeEach
    void connect() {
        client = RedisClient.create(TestRedis.url());
        connection = client.connect(ByteArrayCodec.INSTANCE);
        store = RedisLockStore.builder(TestRedis.url()).keyPrefix(PREFIX).build();
    }

    @AfterEach
    void close() {
        store.close();
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    private RedisCommands<byte[], byte[]> redis() {
        return connection.sync();
    }

    private static byte[] record(String key) {
        return (PREFIX + key).getBytes(StandardCharsets.UTF_8);
    }

    private long field(String key, String name) {
        byte[] value = redis().hget(record(key), name.getBytes(StandardCharsets.US_ASCII));
        return value == null ? -1 : Long.parseLong(new String(value, StandardCharsets.US_ASCII));
    }

    @Test
    void aKeysRecordIsOneHashNamedByItsUtf8BytesExactly() {
        String key = "é\u0000 \uD83D\uDE00 {tag} " + UUID.randomUUID();
        long token = store.acquire(Acquisition.of(key, "owner-1", 60_000)).fencingToken();

        assertThat(redis().type(record(key))).isEqualTo("hash");
        assertThat(field(key, "t")).isEqualTo(token);
        assertThat(new String(
                        redis().hget(record(key), "o".getBytes(StandardCharsets.US_ASCII)), StandardCharsets.US_ASCII))
                .isEqualTo("owner-1");
        byte[] nfd = record("e\u0301\u0000 \uD83D\uDE00 {tag} " + key.substring(key.length() - 36));
        assertThat(redis().exists(nfd)).as("the NFD form is another key").isZero();
        long pttl = redis().pttl(record(key));
        assertThat(pttl)
                .as("kept until the lease ends, plus %d ms", Scripts.KEEP_AFTER_MILLIS)
                .isBetween(60_000L, 60_000L + Scripts.KEEP_AFTER_MILLIS + 100);
        assertThat(Arrays.equals(record(key), (PREFIX + key).getBytes(StandardCharsets.UTF_8)))
                .isTrue();
    }

    @Test
    void aReleaseKeepsTheLastTokenUntilTheRecordGoesAFewSecondsLater() {
        String key = "released:" + UUID.randomUUID();
        long token = store.acquire(Acquisition.of(key, "owner-1", 60_000)).fencingToken();
        assertThat(store.release(key, "owner-1")).isTrue();

        assertThat(field(key, "t")).as("the token stays").isEqualTo(token);
        assertThat(field(key, "e")).as("the lease is gone").isEqualTo(-1);
        assertThat(redis().pttl(record(key)))
                .as("removed %d ms after the release", Scripts.KEEP_AFTER_MILLIS)
                .isBetween(Scripts.KEEP_AFTER_MILLIS - 2_000, Scripts.KEEP_AFTER_MILLIS + 100);
        assertThat(store.acquire(Acquisition.of(key, "owner-2", 1_000)).fencingToken())
                .isGreaterThan(token);
    }

    /** On a server of its own: {@code SCRIPT FLUSH} would also empty the script cache of others sharing the server. */
    @Test
    void aScriptRedisForgotIsSentAgain() {
        int port = FreePorts.pick();
        TestRedis.EmbeddedRedis server = TestRedis.EmbeddedRedis.start(port, "noscript");
        RedisClient own = RedisClient.create("redis://127.0.0.1:" + port);
        try (StatefulRedisConnection<String, String> admin = own.connect();
                RedisLockStore flushed = RedisLockStore.builder("redis://127.0.0.1:" + port)
                        .keyPrefix(PREFIX)
                        .build()) {
            String key = "noscript:" + UUID.randomUUID();
            long token = flushed.acquire(Acquisition.of(key, "owner-1", 60_000)).fencingToken();
            admin.sync().scriptFlush();

            assertThat(flushed.release(key, "owner-1")).isTrue();
            assertThat(flushed.acquire(Acquisition.of(key, "owner-2", 60_000)).fencingToken())
                    .isGreaterThan(token);
            assertThat(admin.sync().scriptExists(Scripts.ACQUIRE.sha(), Scripts.RELEASE.sha()))
                    .containsExactly(true, true);
        } finally {
            own.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            server.stop();
        }
    }
}
