package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.redis.testing.TestEngines;
import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import dev.baton.tck.faults.TcpProxy;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis behind a TCP proxy that goes down, or stops answering without closing anything: every call fails
 * with a {@link LockStoreException} within its bound, nothing is half-done, and the same store works again
 * once Redis is back.
 */
class OutageTest {

    private static final long COMMAND_TIMEOUT = 2_000;

    private TcpProxy proxy;
    private RedisLockStore store;

    @BeforeEach
    void proxy() throws Exception {
        proxy = new TcpProxy(RedisURI.create(TestRedis.url()).getPort());
        proxy.start();
        store = RedisLockStore.builder("redis://" + proxy.address())
                .keyPrefix(TestRedis.RUN_PREFIX + "outage:")
                .commandTimeout(Duration.ofMillis(COMMAND_TIMEOUT))
                .build();
    }

    @AfterEach
    void close() {
        store.close();
        proxy.close();
    }

    private static String key(String name) {
        return name + ":" + UUID.randomUUID();
    }

    /** Asserts the call fails with a LockStoreException after at least {@code min} and at most {@code max} ms. */
    private static void failsWithin(long min, long max, String what, ThrowingCallable call) {
        long started = System.nanoTime();
        assertThatThrownBy(call).as(what).isInstanceOf(LockStoreException.class).hasMessageContaining("did not answer");
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(took).as("%s failed after %d ms", what, took).isBetween(min, max);
    }

    @Test
    void aRedisThatStopsAnsweringFailsEachCallWithinItsBoundAndTheStoreRecovers() {
        String held = key("held");
        String holder = "holder-" + UUID.randomUUID();
        long token = store.acquire(Acquisition.of(held, holder, 120_000)).fencingToken();

        proxy.blackHole();
        String key = key("hung");
        failsWithin(
                900,
                1_900,
                "an acquisition bounded to 1 s",
                () -> store.acquire(Acquisition.of(key, "owner-1", 60_000, 1_000)));
        failsWithin(
                200, 1_200, "a renewal bounded to 0.5 s", () -> store.renew(new Renewal(held, holder, 60_000, 500)));
        failsWithin(
                200,
                1_200,
                "a try (bound 0: the shortest answer time)",
                () -> store.acquire(Acquisition.of(key, "owner-1", 60_000, 0)));
        failsWithin(
                500,
                1_500,
                "a batch renewal bounded to 0.6 s",
                () -> store.renewAll(List.of(new Lease(held, holder)), 60_000, 600));
        failsWithin(
                COMMAND_TIMEOUT - 100,
                COMMAND_TIMEOUT + 1_000,
                "a release (the command timeout)",
                () -> store.release(held, holder));
        failsWithin(
                COMMAND_TIMEOUT - 100,
                COMMAND_TIMEOUT + 1_000,
                "an acquisition without a bound (the command timeout)",
                () -> store.acquire(Acquisition.of(key, "owner-1", 60_000)));
        failsWithin(
                COMMAND_TIMEOUT - 100,
                COMMAND_TIMEOUT + 1_000,
                "a bound above the command timeout",
                () -> store.acquire(Acquisition.of(key, "owner-1", 60_000, 60_000)));

        proxy.heal();
        String after = "owner-" + UUID.randomUUID();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(LockStoreException.class)
                .until(() -> store.acquire(Acquisition.of(key, after, 60_000)).isAcquired());
        assertThat(store.renew(Renewal.of(held, holder, 120_000)))
                .as("the lock taken before Redis hung")
                .isTrue();
        assertThat(store.release(key, "owner-1"))
                .as("the failed calls took nothing")
                .isFalse();
        assertThat(store.release(key, after)).isTrue();
        assertThat(store.release(held, holder)).isTrue();
        assertThat(store.acquire(Acquisition.of(held, "owner-2", 1_000)).fencingToken())
                .isGreaterThan(token);
    }

    @Test
    void aRedisThatIsDownFailsCallsWithTheCauseAndTheStoreRecoversByItself() throws Exception {
        String key = key("down");
        assertThat(store.acquire(Acquisition.of(key, "owner-1", 60_000)).isAcquired())
                .isTrue();

        proxy.stop();
        long started = System.nanoTime();
        assertThatThrownBy(() -> store.renew(Renewal.of(key, "owner-1", 60_000)))
                .isInstanceOf(LockStoreException.class)
                .satisfies(e -> assertThat(e.getCause()).isNotNull());
        assertThatThrownBy(() -> store.acquire(Acquisition.of(key("other"), "owner-2", 60_000, 1_000)))
                .isInstanceOf(LockStoreException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                .as("both calls together")
                .isLessThan(2 * COMMAND_TIMEOUT + 1_000);

        proxy.start();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(LockStoreException.class)
                .until(() -> store.renew(Renewal.of(key, "owner-1", 60_000)));
        assertThat(store.release(key, "owner-1")).isTrue();
    }

    @Test
    void anEngineOnAHungRedisFailsTheWaitWithinTheCallersTimeoutAndLosesItsLockWhenTheLeaseEnds() {
        try (LockEngine engine = TestEngines.engine(store, 3_000, 1_000)) {
            HeldLock lock = engine.acquire(key("engine-held"), 3_000, 1_000, true);
            String busy = key("engine-busy");
            engine.acquire(busy, 60_000, 1_000, true);

            proxy.blackHole();
            long started = System.nanoTime();
            assertThatThrownBy(() -> engine.acquire(key("engine-wait"), 60_000, 1_000, true))
                    .isInstanceOf(LockStoreException.class);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                    .as("a wait of 1 s on a hung Redis")
                    .isLessThan(2_000);
            // Renewals fail like on any store failure: the lock is held until its lease is over, then lost.
            assertThat(lock.isHeld()).isTrue();
            await().atMost(Duration.ofSeconds(6)).until(() -> !lock.isHeld());
            proxy.heal();
        }
    }
}
