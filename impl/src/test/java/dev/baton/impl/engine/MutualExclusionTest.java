package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.ExclusionDetector;
import dev.baton.tck.Together;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many threads, many rounds: never two holders at once, within one engine and across engines sharing a store. */
class MutualExclusionTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 250;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    @Test
    void threadsOfOneEngineNeverHoldTheSameKeyTogether() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), 30_000, 60_000);
        ExclusionDetector detector = new ExclusionDetector();
        Together.run(THREADS, t -> {
            for (int i = 0; i < ROUNDS; i++) {
                try (HeldLock lock = engine.acquire("counter", 30_000, 60_000, true)) {
                    detector.enter();
                    detector.exit();
                }
            }
        });
        assertThat(detector.entries()).isEqualTo(THREADS * ROUNDS);
        assertThat(detector.maxInside()).isEqualTo(1);
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void twoEnginesOnOneStoreBehaveLikeTwoInstances() throws Exception {
        MemoryLockStore shared = new MemoryLockStore();
        LockEngine[] instances = {engines.engine(shared, 30_000, 60_000), engines.engine(shared, 30_000, 60_000)};
        ExclusionDetector detector = new ExclusionDetector();
        ConcurrentHashMap<Long, Boolean> tokens = new ConcurrentHashMap<>();
        Together.run(THREADS, t -> {
            LockEngine engine = instances[t % 2];
            for (int i = 0; i < ROUNDS / 2; i++) {
                try (HeldLock lock = engine.acquire("shared", 30_000, 60_000, true)) {
                    detector.enter();
                    assertThat(tokens.put(lock.fencingToken(), true))
                            .as("token reused")
                            .isNull();
                    detector.exit();
                }
            }
        });
        assertThat(detector.entries()).isEqualTo(THREADS * (ROUNDS / 2));
        assertThat(detector.maxInside()).isEqualTo(1);
    }

    @Test
    void differentKeysDoNotExcludeEachOther() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), 30_000, 60_000);
        java.util.concurrent.CyclicBarrier allInside = new java.util.concurrent.CyclicBarrier(THREADS);
        Together.run(THREADS, t -> {
            try (HeldLock lock = engine.acquire("key-" + t, 30_000, 1_000, true)) {
                // Every thread holds its own key at the same time: the barrier only opens if none blocks another.
                allInside.await(30, java.util.concurrent.TimeUnit.SECONDS);
            }
        });
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void fencingTokensIncreaseWithEveryAcquisitionOfAKey() {
        LockEngine engine = engines.engine(new MemoryLockStore(), 30_000, 1_000);
        long previous = 0;
        for (int i = 0; i < 100; i++) {
            try (HeldLock lock = engine.acquire("fenced", 30_000, 1_000, true)) {
                assertThat(lock.fencingToken()).isGreaterThan(previous);
                previous = lock.fencingToken();
            }
        }
    }
}
