package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the liveness check reads: renewals that are not sent in time, and losses nobody was told of. */
class VitalsTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    /** The engine's store-call threads: one, which the test can keep busy. */
    private final ExecutorService storeCalls = Executors.newSingleThreadExecutor();

    private final LockEngine engine = engines.storeCalls(storeCalls)
            .engine(new MemoryLockStore())
            .ttl(300)
            .timeout(1_000)
            .build();

    @AfterEach
    void stop() {
        engine.close(); // before its store-call threads stop (the extension's close after that does nothing)
        storeCalls.shutdownNow();
    }

    @Test
    void renewedLocksAreLive() {
        // 3 s: overdue means more than 1 s late, which a loaded machine's scheduler stalls do not reach
        HeldLock lock = engine.acquire("fine", 3_000, 1_000, true);

        await().during(Duration.ofMillis(1_500))
                .atMost(Duration.ofSeconds(3))
                .until(() -> Vitals.of(engine).live());

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

        // One snapshot each: between the renewal falling overdue and the lease's end there are only 200 ms.
        Vitals overdue = await().pollInterval(Duration.ofMillis(5))
                .atMost(Duration.ofSeconds(5))
                .until(() -> Vitals.of(engine), v -> v.overdueRenewals() == 1);
        assertThat(overdue.live()).isFalse();
        assertThat(overdue.mostOverdueMillis()).isGreaterThanOrEqualTo(100);
        // The lease ends unrenewed: the loss is found, but telling the holder waits for the stalled threads.
        Vitals untold = await().pollInterval(Duration.ofMillis(5))
                .atMost(Duration.ofSeconds(5))
                .until(() -> Vitals.of(engine), v -> v.untoldLosses() == 1);
        assertThat(untold.live()).isFalse();
        assertThat(lock.whenLost().toCompletableFuture()).isNotDone();

        stalled.countDown();

        lock.whenLost().toCompletableFuture().get(5, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(5)).until(() -> Vitals.of(engine).live());
        lock.close();
    }
}
