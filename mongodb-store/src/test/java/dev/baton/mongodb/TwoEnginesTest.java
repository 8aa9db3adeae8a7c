package dev.baton.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.mongodb.testing.TestEngines;
import dev.baton.mongodb.testing.TestMongo;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two engines on two store instances (two application instances) with real threads contending for one key
 * through the whole runtime (local queues and hand-overs, polling, renewals): never two holders, tokens strictly
 * growing in the order the key was held, every round gets through.
 */
class TwoEnginesTest {

    private static final int THREADS_PER_ENGINE = 4;
    private static final int ROUNDS = 40;

    @Test
    void neverTwoHoldersAndTokensGrowInHoldOrder() throws Exception {
        String key = "two-engines:" + UUID.randomUUID();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_ENGINE);
        try (LockEngine first = TestEngines.engine(TestMongo.store("engines"), 2_000, 30_000);
                LockEngine second = TestEngines.engine(TestMongo.store("engines"), 2_000, 30_000)) {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 2 * THREADS_PER_ENGINE; t++) {
                LockEngine engine = t % 2 == 0 ? first : second;
                workers.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        try (HeldLock lock = engine.acquire(key, 2_000, 30_000, true)) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            synchronized (tokens) {
                                tokens.add(lock.fencingToken());
                            }
                            Thread.sleep(1);
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(180, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(overlaps.get()).as("times two holders were inside at once").isZero();
        assertThat(tokens).as("every round of every thread got the key").hasSize(2 * THREADS_PER_ENGINE * ROUNDS);
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i)).as("token #%d, in hold order", i + 1).isGreaterThan(tokens.get(i - 1));
        }
    }
}
