package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.Acquisition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engine finds its held locks through its key gates (no set of its own): a gate with only waiters lists
 * nothing, and a lock given up by two threads at once (its holder's release and the shutdown that abandons
 * it) leaves the list, and is counted as given up, exactly once.
 */
class HeldListTest {

    private static final int ROUNDS = 2_000;
    private static final int LOCKS = 4;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final ExecutorService workers = Executors.newFixedThreadPool(LOCKS);

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void aKeyOnlyWaitedForHereIsNotListedAsHeld() throws Exception {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = engines.engine(store).ttl(60_000).build();
        assertThat(store.acquire(Acquisition.of("remote", "another-instance", 60_000))
                        .isAcquired())
                .isTrue();
        HeldLock mine = engine.acquire("mine", 60_000, 1_000, false);
        CompletableFuture<HeldLock> waiting =
                CompletableFuture.supplyAsync(() -> engine.acquire("remote", 60_000, 30_000, true), workers);
        await().atMost(Duration.ofSeconds(10)).until(() -> engine.gateUsers("remote") == 1);

        assertThat(engine.heldCount()).isEqualTo(1);
        assertThat(engine.heldLocks()).containsExactly(mine);
        assertThat(new Inspection(engine, false, () -> "test").held())
                .extracting(info -> info.key())
                .containsExactly("mine");

        assertThat(store.release("remote", "another-instance")).isTrue();
        HeldLock theirs = waiting.get(30, TimeUnit.SECONDS);
        assertThat(engine.heldLocks()).containsExactlyInAnyOrder(mine, theirs);
        mine.release();
        theirs.release();
        assertThat(engine.heldCount()).isZero();
        assertThat(engine.gateUsers("remote")).isZero();
        assertThat(engine.gateUsers("mine")).isZero();
    }

    @Test
    void aReleaseRacingTheShutdownGivesTheLockUpOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            AtomicInteger holding = new AtomicInteger();
            AtomicInteger released = new AtomicInteger();
            EngineMetrics counting = new EngineMetrics() {
                @Override
                public void holding() {
                    holding.incrementAndGet();
                }

                @Override
                public void released(long holdNanos) {
                    released.incrementAndGet();
                }
            };
            LockEngine engine = engines.engine(new MemoryLockStore())
                    .ttl(60_000)
                    .metrics(counting)
                    .build();
            List<HeldLock> locks = new ArrayList<>();
            for (int i = 0; i < LOCKS; i++) {
                locks.add(engine.acquire("race-" + i, 60_000, 1_000, false));
            }
            CyclicBarrier start = new CyclicBarrier(LOCKS + 1);
            List<Future<?>> releases = new ArrayList<>();
            for (HeldLock lock : locks) {
                releases.add(workers.submit(() -> {
                    start.await();
                    try {
                        lock.release();
                    } catch (RuntimeException e) {
                        // the store was closed under it: what counts is the local bookkeeping
                    }
                    return null;
                }));
            }
            start.await();
            engine.close(); // no grace: each lock whose work still runs is abandoned
            for (Future<?> release : releases) {
                release.get(10, TimeUnit.SECONDS);
            }

            assertThat(holding).as("round %d: locks taken", round).hasValue(LOCKS);
            assertThat(released)
                    .as("round %d: each lock given up exactly once, by its release or by the shutdown", round)
                    .hasValue(LOCKS);
            assertThat(engine.heldCount())
                    .as("round %d: none listed as held", round)
                    .isZero();
            for (int i = 0; i < LOCKS; i++) {
                assertThat(engine.gateUsers("race-" + i))
                        .as("round %d: the gate of race-%d is gone", round, i)
                        .isZero();
            }
        }
    }
}
