package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.redis.testing.StoresOnTestRedis;
import dev.baton.redis.testing.TestEngines;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.LockStore;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hand-off between two store instances (two application instances) by pub/sub: a waiter that would poll only
 * every minute takes a released key at once, each instance keeps one subscription whatever its number of
 * listeners, a subscription cut by the server comes back by itself, and a notification that never arrives is
 * made up for by the engine's polling.
 */
class HandOffTest {

    /** Far longer than any bound of this test: a waiter woken within the bound was woken by a notification. */
    private static final long POLL_MILLIS = 60_000;

    private static final long BOUND_MILLIS = 1_000;
    private static final int ROUNDS = 30;

    private final String clientName =
            "baton-handoff-" + UUID.randomUUID().toString().substring(0, 8);
    private StoresOnTestRedis admin;
    private String prefix;

    @BeforeEach
    void connect() {
        admin = new StoresOnTestRedis("handoff");
        prefix = admin.prefix();
    }

    @AfterEach
    void close() {
        admin.close();
    }

    private RedisLockStore store() {
        return admin.store(clientName);
    }

    private RedisCommands<String, String> redis() {
        return admin.redis();
    }

    private long subscribers() {
        Map<String, Long> counts = redis().pubsubNumsub(prefix + "released");
        return counts.getOrDefault(prefix + "released", 0L);
    }

    /** A waiter that asks the store, then sleeps until a release of its key is announced or its poll interval ends. */
    private static final class Waiter implements Consumer<String> {
        final String key;
        final Semaphore released = new Semaphore(0);

        Waiter(String key) {
            this.key = key;
        }

        @Override
        public void accept(String releasedKey) {
            if (releasedKey.equals(key)) {
                released.release();
            }
        }

        CompletableFuture<Long> inBackground(LockStore store, String owner, CountDownLatch parked) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return takeKey(store, owner, parked);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        /** @return when it took the key, by System.nanoTime() */
        long takeKey(LockStore store, String owner, CountDownLatch parked) throws InterruptedException {
            while (true) {
                released.drainPermits();
                AcquireResult result = store.acquire(Acquisition.of(key, owner, 60_000));
                if (result.isAcquired()) {
                    return System.nanoTime();
                }
                parked.countDown();
                released.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Test
    void aWaiterTakesAReleasedKeyFromAnotherInstanceWithoutWaitingForItsPoll() throws Exception {
        RedisLockStore first = store();
        RedisLockStore second = store();
        String key = "handoff:" + UUID.randomUUID();
        Waiter onFirst = new Waiter(key);
        Waiter onSecond = new Waiter(key);
        List<AutoCloseable> handles = new ArrayList<>();
        handles.add(first.onRelease(onFirst));
        handles.add(second.onRelease(onSecond));
        for (int i = 0; i < 3; i++) {
            handles.add(second.onRelease(k -> {})); // more listeners, no more subscriptions
        }
        assertThat(subscribers()).as("subscriptions: one per store instance").isEqualTo(2);

        String holder = "h-" + UUID.randomUUID();
        assertThat(first.acquire(Acquisition.of(key, holder, 60_000)).isAcquired())
                .isTrue();
        List<Long> handOffs = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            // the key goes back and forth: the holder's instance releases, the other one waits
            RedisLockStore holding = round % 2 == 0 ? first : second;
            RedisLockStore waiting = round % 2 == 0 ? second : first;
            Waiter waiter = round % 2 == 0 ? onSecond : onFirst;
            String next = "h-" + UUID.randomUUID();
            CountDownLatch parked = new CountDownLatch(1);
            CompletableFuture<Long> taken = waiter.inBackground(waiting, next, parked);
            assertThat(parked.await(5, TimeUnit.SECONDS))
                    .as("the waiter asked and was refused")
                    .isTrue();
            Thread.sleep(20); // into its sleep
            long releasedAt = System.nanoTime();
            assertThat(holding.release(key, holder)).isTrue();
            long takenAt = taken.get(BOUND_MILLIS * 5, TimeUnit.MILLISECONDS);
            handOffs.add(TimeUnit.NANOSECONDS.toMillis(takenAt - releasedAt));
            holder = next;
        }
        for (AutoCloseable handle : handles) {
            handle.close();
        }
        assertThat(handOffs)
                .as("hand-off times in ms (the waiters poll every %d ms)", POLL_MILLIS)
                .allSatisfy(ms -> assertThat(ms).isLessThan(BOUND_MILLIS));
        assertThat(second.release(key, holder) || first.release(key, holder)).isTrue();
    }

    @Test
    void aSubscriptionCutByTheServerComesBackByItself() throws Exception {
        RedisLockStore holding = store();
        RedisLockStore waiting = store();
        String key = "resubscribe:" + UUID.randomUUID();
        Waiter waiter = new Waiter(key);
        AutoCloseable handle = waiting.onRelease(waiter);
        try {
            holding.release("warm-up", "nobody"); // connects the holder's instance
            assertThat(subscribers()).isEqualTo(1);

            // The server drops this test's subscriber connection; Lettuce reconnects and subscribes again.
            List<Long> killed = admin.subscriberIds(clientName);
            killed.forEach(id -> redis().clientKill(io.lettuce.core.KillArgs.Builder.id(id)));
            assertThat(killed).as("the store's subscriber connection").hasSize(1);
            await().atMost(Duration.ofSeconds(20)).until(() -> subscribers() == 1);

            String holder = "h-" + UUID.randomUUID();
            assertThat(holding.acquire(Acquisition.of(key, holder, 60_000)).isAcquired())
                    .isTrue();
            CountDownLatch parked = new CountDownLatch(1);
            CompletableFuture<Long> taken = waiter.inBackground(waiting, "w-" + UUID.randomUUID(), parked);
            assertThat(parked.await(5, TimeUnit.SECONDS)).isTrue();
            long releasedAt = System.nanoTime();
            assertThat(holding.release(key, holder)).isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(taken.get(BOUND_MILLIS * 5, TimeUnit.MILLISECONDS) - releasedAt))
                    .as("hand-off after the subscription came back")
                    .isLessThan(BOUND_MILLIS);
        } finally {
            handle.close();
        }
        assertThat(subscribers())
                .as("the listener is gone, the store's subscription stays until it closes")
                .isEqualTo(1);
        waiting.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> subscribers() == 0);
    }

    /** A store whose notifications never arrive: every one is lost on the way. */
    private static final class Deaf extends ForwardingLockStore {
        Deaf(LockStore delegate) {
            super(delegate);
        }

        @Override
        public AutoCloseable onRelease(Consumer<String> listener) {
            return delegate().onRelease(key -> {});
        }
    }

    private List<Long> engineHandOffs(LockStore firstStore, LockStore secondStore, int rounds) throws Exception {
        List<Long> times = Collections.synchronizedList(new ArrayList<>());
        try (LockEngine first = TestEngines.engine(firstStore, 30_000, 10_000);
                LockEngine second = TestEngines.engine(secondStore, 30_000, 10_000)) {
            String key = "engine-handoff:" + UUID.randomUUID();
            for (int round = 0; round < rounds; round++) {
                HeldLock held = first.acquire(key, 30_000, 10_000, true);
                CompletableFuture<Long> taken = CompletableFuture.supplyAsync(() -> {
                    HeldLock next = second.acquire(key, 30_000, 10_000, true);
                    long at = System.nanoTime();
                    next.close();
                    return at;
                });
                Thread.sleep(600); // the waiter is well into its backoff
                long releasedAt = System.nanoTime();
                held.close();
                times.add(TimeUnit.NANOSECONDS.toMillis(taken.get(15, TimeUnit.SECONDS) - releasedAt));
            }
        }
        return times;
    }

    @Test
    void twoEnginesHandAKeyOverByNotificationAndByPollingWhenTheNotificationIsLost() throws Exception {
        List<Long> notified = engineHandOffs(store(), store(), 8);
        List<Long> polled = engineHandOffs(store(), new Deaf(store()), 8);

        Collections.sort(notified);
        assertThat(notified.get(notified.size() / 2))
                .as("median hand-off with notifications, ms: %s", notified)
                .isLessThan(50);
        // Lost notifications: the engine still polls (with backoff), so the waiter gets the key, later.
        assertThat(polled)
                .as("hand-offs by polling alone, ms")
                .allSatisfy(ms -> assertThat(ms).isLessThan(3_000));
    }
}
