package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.tck.faults.TcpProxy;
import dev.baton.zookeeper.testing.TestZooKeeper;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A holder whose connection to ZooKeeper is cut or goes silent, against another instance connected straight to the
 * server: the holder is told its lock is lost before the server can give the key to anyone else; a short outage
 * within the session keeps the lock; after the server expired the holder's session, the holder's store works on a
 * new session; an acquisition the server made but whose answer never came back is undone by the store, not left
 * holding the key for a caller that was told it failed. The holder reaches the server through a TCP proxy
 * ({@link TcpProxy}) that the test cuts, turns into a black hole (a partition: nothing arrives, nothing is closed)
 * or makes swallow the server's answers.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SessionFaultsTest {

    private static final long TTL = 60_000;

    private TcpProxy proxy;
    private ZooKeeperLockStore holder;
    private ZooKeeperLockStore other;
    private String key;

    @BeforeEach
    void setUp() throws Exception {
        proxy = new TcpProxy(TestZooKeeper.server().getPort());
        proxy.start();
        key = "faults:" + UUID.randomUUID();
        other = TestZooKeeper.store("faults");
    }

    @AfterEach
    void tearDown() {
        if (holder != null) {
            holder.close();
        }
        other.close();
        proxy.close();
    }

    private ZooKeeperLockStore holderWithSession(Duration sessionTimeout) {
        holder = ZooKeeperLockStore.builder(proxy.address())
                .root("/faults")
                .sessionTimeout(sessionTimeout)
                .operationTimeout(Duration.ofSeconds(2))
                .build();
        return holder;
    }

    @Test
    void aPartitionedHolderIsToldItsLockIsLostBeforeTheServerGivesTheKeyToAnother() throws Exception {
        holderWithSession(Duration.ofSeconds(3));
        String owner = "holder-" + UUID.randomUUID();
        long token = acquired(holder, owner);
        assertThat(other.acquire(Acquisition.of(key, "other-1", TTL, 0)).isAcquired())
                .as("the other instance while the holder holds")
                .isFalse();

        proxy.blackHole();
        AtomicLong lostAt = new AtomicLong();
        ExecutorService renewing = Executors.newSingleThreadExecutor();
        try {
            Future<?> renewals = renewing.submit(() -> {
                while (true) {
                    try {
                        if (!holder.renew(new Renewal(key, owner, TTL, 500))) {
                            lostAt.set(System.nanoTime());
                            return null;
                        }
                    } catch (RuntimeException e) {
                        // not answered in time: not lost yet, try again
                    }
                    Thread.sleep(20);
                }
            });
            long takenAt = 0;
            long otherToken = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (takenAt == 0 && System.nanoTime() < end) {
                AcquireResult result = other.acquire(Acquisition.of(key, "other-2", TTL, 0));
                if (result.isAcquired()) {
                    takenAt = System.nanoTime();
                    otherToken = result.fencingToken();
                } else {
                    Thread.sleep(10);
                }
            }
            assertThat(takenAt)
                    .as("the server freed the silent holder's key within 30 s")
                    .isPositive();
            renewals.get(10, TimeUnit.SECONDS);
            assertThat(lostAt.get())
                    .as("the holder was told its lock was lost (renew answered false) before another took the key")
                    .isPositive()
                    .isLessThan(takenAt);
            assertThat(otherToken).as("the next holder's token").isGreaterThan(token);
        } finally {
            renewing.shutdownNow();
        }
    }

    @Test
    void anOutageShorterThanTheSessionsGraceKeepsTheLock() throws Exception {
        holderWithSession(Duration.ofSeconds(9)); // grace: 3 s
        String owner = "holder-" + UUID.randomUUID();
        acquired(holder, owner);

        proxy.stop(); // connections cut: the client notices at once
        Thread.sleep(200);
        proxy.start();

        assertThat(holder.renew(new Renewal(key, owner, TTL, 2_900)))
                .as("renewal after the client reconnected within its session")
                .isTrue();
        assertThat(other.acquire(Acquisition.of(key, "other", TTL, 0)).isAcquired())
                .as("the other instance after the outage")
                .isFalse();
        assertThat(holder.release(key, owner)).as("the holder's release").isTrue();
        assertThat(other.acquire(Acquisition.of(key, "other", TTL, 0)).isAcquired())
                .as("the other instance after the release")
                .isTrue();
    }

    @Test
    void afterTheServerExpiredItsSessionTheHoldersStoreWorksOnANewSession() throws Exception {
        holderWithSession(Duration.ofSeconds(2));
        String owner = "holder-" + UUID.randomUUID();
        long token = acquired(holder, owner);

        proxy.blackHole();
        // the server frees the key when the silent session expires
        long[] otherToken = new long[1];
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    AcquireResult result = other.acquire(Acquisition.of(key, "other", TTL, 0));
                    otherToken[0] = result.isAcquired() ? result.fencingToken() : 0;
                    return result.isAcquired();
                });
        proxy.heal();

        assertThat(holder.renew(new Renewal(key, owner, TTL, 1_000)))
                .as("the holder's renewal")
                .isFalse();
        assertThat(holder.release(key, owner)).as("the holder's release").isFalse();
        assertThat(other.release(key, "other")).isTrue();
        String next = "holder-next-" + UUID.randomUUID();
        long[] nextToken = new long[1];
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(() -> {
                    AcquireResult result = holder.acquire(Acquisition.of(key, next, TTL, 2_000));
                    nextToken[0] = result.isAcquired() ? result.fencingToken() : 0;
                    return result.isAcquired();
                });
        assertThat(nextToken[0])
                .as("the holder store's token on its new session")
                .isGreaterThan(otherToken[0]);
        assertThat(otherToken[0]).isGreaterThan(token);
    }

    @Test
    void anAcquisitionWhoseAnswerWasLostIsUndoneOnceTheSessionAnswersAgain() throws Exception {
        holderWithSession(Duration.ofSeconds(9)); // counted on for 6 s without an answer
        String warmKey = key + ":other-lock";
        acquiredKey(holder, warmKey, "warm");
        acquiredKey(holder, key, "before"); // the key's node exists: the next acquisition is one transaction
        assertThat(holder.release(key, "before")).isTrue();

        proxy.swallowAnswers(); // the server gets the request and acts on it; its answer never arrives
        String owner = "holder-" + UUID.randomUUID();
        assertThatThrownBy(() -> holder.acquire(Acquisition.of(key, owner, TTL, 500)))
                .as("an acquisition whose answer does not come")
                .isInstanceOf(LockStoreException.class);
        assertThat(other.acquire(Acquisition.of(key, "other", TTL, 0)).isAcquired())
                .as("the key, taken by the holder's session for a caller that was told it failed")
                .isFalse();

        proxy.heal(); // the connection is cut: the client reconnects within its session
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> other.acquire(Acquisition.of(key, "other", TTL, 0)).isAcquired());
        assertThat(holder.renew(new Renewal(warmKey, "warm", TTL, 3_000)))
                .as("the holder's session lived on (its other lock): the key was freed by the store, not by an"
                        + " expired session")
                .isTrue();
    }

    private void acquiredKey(ZooKeeperLockStore store, String lockKey, String owner) {
        assertThat(store.acquire(Acquisition.of(lockKey, owner, TTL, 5_000)).isAcquired())
                .as("%s acquires %s", owner, lockKey)
                .isTrue();
    }

    private long acquired(ZooKeeperLockStore store, String owner) {
        AcquireResult result = store.acquire(Acquisition.of(key, owner, TTL, 5_000));
        assertThat(result.isAcquired()).as("%s acquires %s", owner, key).isTrue();
        return result.fencingToken();
    }
}
