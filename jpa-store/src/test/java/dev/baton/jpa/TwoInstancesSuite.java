package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.tck.Together;
import jakarta.persistence.EntityManagerFactory;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Two entity manager factories on one database are two application instances: real threads in both
 * race for the same key, many rounds.
 */
public abstract class TwoInstancesSuite {

    private static final int THREADS_PER_INSTANCE = 4;
    private static final int ATTEMPTS_PER_THREAD = 30;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    /** @return the mode of the stores under test */
    protected LockMode mode() {
        return LockMode.TABLE;
    }

    private JpaLockStore store(EntityManagerFactory factory, String table) {
        return backend().store(factory, table, mode());
    }

    @Test
    void neverTwoHoldersAndTokensGrowAcrossInstancesAndRestarts() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("pair");
        String key = "pair:" + UUID.randomUUID();
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger acquisitions = new AtomicInteger();
        AtomicLong lastToken = new AtomicLong();
        Queue<String> problems = new ConcurrentLinkedQueue<>();

        EntityManagerFactory f1 = backend.newFactory();
        EntityManagerFactory f2 = backend.newFactory();
        try (JpaLockStore s1 = store(f1, table);
                JpaLockStore s2 = store(f2, table)) {
            s1.acquire(Acquisition.of("warm-up:" + UUID.randomUUID(), JpaTestOwners.owner(), 1));
            s2.acquire(Acquisition.of("warm-up:" + UUID.randomUUID(), JpaTestOwners.owner(), 1));
            Together.run(2 * THREADS_PER_INSTANCE, i -> {
                JpaLockStore store = i % 2 == 0 ? s1 : s2;
                // at least ATTEMPTS_PER_THREAD attempts, and on until this thread held the key once: fast
                // refusals (advisory mode answers a key held in this instance without a round trip) must not
                // leave a run with almost no acquisitions to compare
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                boolean heldOnce = false;
                for (int attempt = 0;
                        attempt < ATTEMPTS_PER_THREAD || !heldOnce && System.nanoTime() < deadline;
                        attempt++) {
                    String owner = JpaTestOwners.owner();
                    AcquireResult r = store.acquire(Acquisition.of(key, owner, 30_000));
                    if (!r.isAcquired()) {
                        Thread.onSpinWait();
                        continue;
                    }
                    heldOnce = true;
                    if (holders.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    long previous = lastToken.getAndSet(r.fencingToken());
                    if (r.fencingToken() <= previous) {
                        problems.add("token " + r.fencingToken() + " after " + previous);
                    }
                    acquisitions.incrementAndGet();
                    Thread.sleep(1);
                    holders.decrementAndGet();
                    if (!store.release(key, owner)) {
                        problems.add("release of a held lock returned false");
                    }
                }
            });
        } finally {
            f1.close();
            f2.close();
        }
        assertThat(problems).isEmpty();
        assertThat(overlaps.get())
                .as("times two instances held the key at once")
                .isZero();
        assertThat(acquisitions.get())
                .as("every thread of both instances held the key at least once")
                .isGreaterThanOrEqualTo(2 * THREADS_PER_INSTANCE);

        // Both instances restart: new factories, new stores, same database.
        EntityManagerFactory f3 = backend.newFactory();
        EntityManagerFactory f4 = backend.newFactory();
        try (JpaLockStore s3 = store(f3, table);
                JpaLockStore s4 = store(f4, table)) {
            long t3 = s3.acquire(Acquisition.of(key, JpaTestOwners.owner(), 1)).fencingToken();
            Thread.sleep(5);
            long t4 = s4.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                    .fencingToken();
            assertThat(t3).isGreaterThan(lastToken.get());
            assertThat(t4).isGreaterThan(t3);
        } finally {
            f3.close();
            f4.close();
        }
    }

    @Test
    void anExpiredKeyHasExactlyOneWinner() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("race");
        EntityManagerFactory f1 = backend.newFactory();
        EntityManagerFactory f2 = backend.newFactory();
        try (JpaLockStore s1 = store(f1, table);
                JpaLockStore s2 = store(f2, table)) {
            for (int round = 0; round < 8; round++) {
                String key = "race:" + UUID.randomUUID();
                long first = s1.acquire(Acquisition.of(key, JpaTestOwners.owner(), 1))
                        .fencingToken();
                Thread.sleep(10);
                AtomicInteger winners = new AtomicInteger();
                AtomicLong winningToken = new AtomicLong();
                Together.run(2 * THREADS_PER_INSTANCE, i -> {
                    AcquireResult r =
                            (i % 2 == 0 ? s1 : s2).acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000));
                    if (r.isAcquired()) {
                        winners.incrementAndGet();
                        winningToken.set(r.fencingToken());
                    }
                });
                assertThat(winners.get()).as("winners in round %d", round).isEqualTo(1);
                assertThat(winningToken.get()).isGreaterThan(first);
            }
        } finally {
            f1.close();
            f2.close();
        }
    }
}
