package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the liveness check reads: renewals that are not sent in time, and losses nobody was told of. */
class VitalsTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    /** The engine's store-call threads: one, which the test can keep busy. */
    private final ExecutorService storeCalls = Executors.newSingleThreadExecutor();
    private final LockEngine engine = new LockEngine(new ManagerSettings("", Optional.empty(), 300, 1_000, "", 0, false),
            new MemoryLockStore(), scheduler, storeCalls, LockListener.NONE);

    @AfterEach
    void stop() {
        engine.close();
        scheduler.shutdownNow();
        storeCalls.shutdownNow();
    }

    @Test
    void renewedLocksAreLive() {
        HeldLock lock = engine.acquire("fine", 300, 1_000, true);

        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> Vitals.of(engine).live());

        assertThat(Vitals.of(engine)).isEqualTo(new Vitals(1, 0, 0, 0));
        lock.close();
        assertThat(Vitals.of(engine).held()).isZero();
    }

    @Test
    void stalledStoreCallThreadsShowAsOverdueRenewalsThenAsALossNobodyWasToldOf() throws Exception {
        HeldLock lock = engine.acquire("stalled", 300, 1_000, true);
        CountDownLatch stalled = new CountDownLatch(1);
        storeCalls.execute(() -> {
            try {
                stalled.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        await().atMost(Duration.ofSeconds(5)).until(() -> Vitals.of(engine).overdueRenewals() == 1);
        assertThat(Vitals.of(engine).live()).isFalse();
        assertThat(Vitals.of(engine).mostOverdueMillis()).isGreaterThanOrEqualTo(100);
        // The lease ends unrenewed: the loss is found, but telling the holder waits for the stalled threads.
        await().atMost(Duration.ofSeconds(5)).until(() -> Vitals.of(engine).untoldLosses() == 1);
        assertThat(lock.whenLost().toCompletableFuture()).isNotDone();

        stalled.countDown();

        lock.whenLost().toCompletableFuture().get(5, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(5)).until(() -> Vitals.of(engine).live());
        lock.close();
    }
}
