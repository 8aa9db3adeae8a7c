package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.redis.internal.Scripts;
import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the store leaves in Redis, as docs/internals.md describes it: one hash per key, named by the prefix and the
 * key's UTF-8 bytes exactly, shared leases included; the last token kept after a release; the record removed by
 * Redis 10 s after nothing in it is live; ended shared leases dropped rather than piled up; a script Redis forgot
 * is sent again.
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
        String value = text(key, name);
        return value == null ? -1 : Long.parseLong(value);
    }

    private String text(String key, String name) {
        byte[] value = redis().hget(record(key), name.getBytes(StandardCharsets.US_ASCII));
        return value == null ? null : new String(value, StandardCharsets.US_ASCII);
    }

    /** @return the names of the record's fields */
    private Set<String> fields(String key) {
        return redis().hkeys(record(key)).stream()
                .map(name -> new String(name, StandardCharsets.US_ASCII))
                .collect(Collectors.toSet());
    }

    /** @return Redis' clock in microseconds, as the scripts read it */
    private long redisMicros() {
        List<byte[]> time = redis().time();
        return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1_000_000
                + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII));
    }

    private static Acquisition shared(String key, String owner, long ttlMillis) {
        return new Acquisition(key, owner, ttlMillis, LockArguments.STORE_BOUND, null, Acquisition.UNLIMITED);
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

    @Test
    void sharedLeasesAreFieldsOfTheKeysOneHashWhichLivesUntilTheLatestEndsPlusTheKeepTime() {
        String key = "shared {tag} " + UUID.randomUUID();
        long now = redisMicros();
        long first = store.acquire(shared(key, "reader-1", 20_000)).fencingToken();
        long second = store.acquire(shared(key, "reader-2", 60_000)).fencingToken();

        assertThat(redis().type(record(key))).isEqualTo("hash");
        assertThat(fields(key)).containsExactlyInAnyOrder("o", "e", "t", "n", "m", "s:reader-1", "s:reader-2");
        assertThat(text(key, "o")).as("no owner: shared leases hold the key").isEmpty();
        assertThat(field(key, "n")).isEqualTo(2);
        assertThat(field(key, "t")).as("the last token").isEqualTo(second);
        String[] lease = text(key, "s:reader-1").split(":");
        assertThat(Long.parseLong(lease[1])).isEqualTo(first);
        assertThat(Long.parseLong(lease[0]) - now)
                .as("reader-1's lease end, µs from before it was taken")
                .isBetween(20_000_000L, 22_000_000L);
        assertThat(field(key, "m")).as("no later than the earliest end").isLessThanOrEqualTo(Long.parseLong(lease[0]));
        assertThat(field(key, "e"))
                .as("the latest end")
                .isEqualTo(Long.parseLong(text(key, "s:reader-2").split(":")[0]));
        assertThat(redis().pttl(record(key)))
                .as("kept until the latest lease ends, plus %d ms", Scripts.KEEP_AFTER_MILLIS)
                .isBetween(58_000L + Scripts.KEEP_AFTER_MILLIS, 60_000L + Scripts.KEEP_AFTER_MILLIS + 100);

        assertThat(store.release(key, "reader-2")).isTrue();
        assertThat(redis().pttl(record(key)))
                .as("the latest lease released: kept until reader-1's ends, plus %d ms", Scripts.KEEP_AFTER_MILLIS)
                .isBetween(18_000L + Scripts.KEEP_AFTER_MILLIS, 20_000L + Scripts.KEEP_AFTER_MILLIS + 100);
        assertThat(store.release(key, "reader-1")).isTrue();
        assertThat(fields(key))
                .as("the last lease released: only the token is left")
                .containsExactly("t");
        assertThat(redis().pttl(record(key)))
                .as("removed %d ms after the last release", Scripts.KEEP_AFTER_MILLIS)
                .isBetween(Scripts.KEEP_AFTER_MILLIS - 2_000, Scripts.KEEP_AFTER_MILLIS + 100);
    }

    @Test
    void endedSharedLeasesAreDroppedByTheNextSharedAcquisitionNotPiledUp() throws Exception {
        String key = "ended:" + UUID.randomUUID();
        long began = System.nanoTime();
        // 3 s: long enough for the 200 to be taken before the first ends, on a busy machine too
        for (int i = 0; i < 200; i++) {
            assertThat(store.acquire(shared(key, "short-" + i, 3_000)).isAcquired())
                    .isTrue();
        }
        assertThat(store.acquire(shared(key, "long", 60_000)).isAcquired()).isTrue();
        assertThat(redis().hlen(record(key))).as("five fields and 201 leases").isEqualTo(5 + 201);
        Thread.sleep(3_200 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));

        assertThat(store.acquire(shared(key, "next", 60_000)).isAcquired()).isTrue();
        assertThat(fields(key)).containsExactlyInAnyOrder("o", "e", "t", "n", "m", "s:long", "s:next");
        assertThat(field(key, "n")).isEqualTo(2);
    }

    @Test
    void aRecordWhoseSharedLeasesAllEndedExpiresByItselfAndAnExclusiveLockTakesItClean() throws Exception {
        String key = "all-ended:" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            assertThat(store.acquire(shared(key, "reader-" + i, 300)).isAcquired())
                    .isTrue();
        }
        assertThat(redis().pttl(record(key)))
                .as("nobody releases: the record goes %d ms after the leases end", Scripts.KEEP_AFTER_MILLIS)
                .isBetween(Scripts.KEEP_AFTER_MILLIS - 2_000, Scripts.KEEP_AFTER_MILLIS + 400);
        Thread.sleep(500);

        long token = store.acquire(Acquisition.of(key, "writer", 60_000)).fencingToken();
        assertThat(fields(key))
                .as("an exclusive record, nothing of the ended leases")
                .containsExactlyInAnyOrder("o", "e", "t");
        assertThat(text(key, "o")).isEqualTo("writer");
        assertThat(field(key, "t")).isEqualTo(token);
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
