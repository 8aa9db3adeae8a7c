package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockLostException;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.redis.internal.Scripts;
import dev.baton.redis.testing.StoresOnTestRedis;
import dev.baton.redis.testing.TestEngines;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Renewal;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Failures that users of other Redis lock libraries met, tried on this store:
 * <ul>
 * <li>a waiter that hangs once its release notification is lost (Redisson's fair lock, #3004 and #3730);</li>
 * <li>a lock record deleted from outside (ShedLock #27, #753);</li>
 * <li>a release that comes after the lease ended (Spring Integration's RedisLockRegistry, #9291).</li>
 * </ul>
 */
class OtherLibrariesFailuresTest {

    /** The engine's default poll ceiling with release notifications: 4 x the 500 ms poll-max-interval. */
    private static final long POLL_BOUND_MILLIS = 2_000;

    private final String clientName =
            "baton-others-" + UUID.randomUUID().toString().substring(0, 8);
    private StoresOnTestRedis admin;
    private String prefix;

    @BeforeEach
    void connect() {
        admin = new StoresOnTestRedis("others");
        prefix = admin.prefix();
    }

    @AfterEach
    void close() {
        admin.close();
    }

    private RedisLockStore store(String name) {
        return admin.store(name);
    }

    private RedisCommands<String, String> redis() {
        return admin.redis();
    }

    private static String owner() {
        return "o-" + UUID.randomUUID();
    }

    @Test
    void aWaiterWhoseReleaseNotificationIsLostStillAcquiresWithinItsPollBound() throws Exception {
        String key = "lost-notification:" + UUID.randomUUID();
        RedisLockStore holding = store(clientName + "-holder");
        String holder = owner();
        assertThat(holding.acquire(Acquisition.of(key, holder, 60_000)).isAcquired())
                .isTrue();
        String waiterName = clientName + "-waiter";
        try (LockEngine waiting = TestEngines.engine(store(waiterName), 60_000, 30_000)) {
            CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
                HeldLock lock = waiting.acquire(key, 60_000, 30_000, true);
                long at = System.nanoTime();
                lock.close();
                return at;
            });
            // The waiter subscribed and asked: its turn is recorded in the key's hash.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> admin.subscriberIds(waiterName).size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> redis().hget(prefix + key, "w") != null);
            Thread.sleep(POLL_BOUND_MILLIS); // well into its backoff, at its longest pause

            // One atomic step on the server: the waiter's subscription is cut, then the key is released by
            // the store's own release script. Its notification cannot reach the waiter.
            long subscriber = admin.subscriberIds(waiterName).get(0);
            long releasedAt;
            try (StatefulRedisConnection<byte[], byte[]> raw = admin.client().connect(ByteArrayCodec.INSTANCE)) {
                raw.sync().multi();
                raw.async().clientKill(io.lettuce.core.KillArgs.Builder.id(subscriber));
                raw.async()
                        .eval(
                                Scripts.RELEASE.source(),
                                ScriptOutputType.INTEGER,
                                new byte[][] {bytes(prefix + key)},
                                bytes(holder),
                                bytes(prefix + "released"));
                releasedAt = System.nanoTime();
                io.lettuce.core.TransactionResult results = raw.sync().exec();
                assertThat((Object) results.get(0)).as("subscriptions cut").isEqualTo(1L);
                assertThat((Object) results.get(1)).as("the release").isEqualTo(1L);
            }

            long waited = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt);
            assertThat(waited)
                    .as("ms from the lost notification's release to the waiter's acquisition")
                    .isLessThan(POLL_BOUND_MILLIS);
        }
    }

    @Test
    void aRecordDeletedFromOutsideIsTakenAgainAndTheOldHoldersRenewalReportsTheLoss() throws Exception {
        String key = "deleted:" + UUID.randomUUID();
        RedisLockStore other = store(clientName + "-other");
        try (LockEngine engine = TestEngines.engine(store(clientName + "-engine"), 1_500, 5_000)) {
            HeldLock held = engine.acquire(key, 1_500, 5_000, true);
            CompletableFuture<LockLostException> lost = held.whenLost().toCompletableFuture();

            assertThat(redis().del(prefix + key))
                    .as("the record, deleted from outside")
                    .isOne();

            String next = owner();
            AcquireResult taken = other.acquire(Acquisition.of(key, next, 60_000));
            assertThat(taken.isAcquired()).as("taken again normally").isTrue();
            assertThat(taken.fencingToken())
                    .as("the new holder's token, above the deleted one's")
                    .isGreaterThan(held.fencingToken());
            // the engine's next renewal (every 500 ms) finds the lock gone and reports it
            assertThat(lost.get(10, TimeUnit.SECONDS)).isNotNull();
            assertThat(held.isHeld()).isFalse();
            assertThat(held.release()).as("the old holder's release").isFalse();
            assertThat(other.inspect(key).map(Holder::owner)).contains(next);
            assertThat(other.release(key, next)).isTrue();
        }
    }

    @Test
    void aReleaseAfterTheLeaseEndedLeavesTheNextHoldersLockAndReportsTheLoss() {
        String key = "late-release:" + UUID.randomUUID();
        RedisLockStore first = store(clientName + "-first");
        RedisLockStore second = store(clientName + "-second");
        String late = owner();
        assertThat(first.acquire(Acquisition.of(key, late, 200)).isAcquired()).isTrue();
        // the lease has ended by Redis' clock, which is the one the scripts decide by
        await().atMost(Duration.ofSeconds(10)).until(() -> first.inspect(key).isEmpty());
        String next = owner();
        assertThat(second.acquire(Acquisition.of(key, next, 60_000)).isAcquired())
                .isTrue();

        assertThat(first.release(key, late))
                .as("the late release reports the loss")
                .isFalse();

        Optional<Holder> holder = second.inspect(key);
        assertThat(holder.map(Holder::owner))
                .as("the next holder keeps the key")
                .contains(next);
        assertThat(second.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                .isFalse();
        assertThat(second.renew(Renewal.of(key, next, 60_000))).isTrue();
        assertThat(second.release(key, next)).isTrue();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
