package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockLostException;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With interrupt-on-loss, the worker is interrupted when the loss is found, not after the loss's
 * observers have run (they may be slow, and run elsewhere); and once the worker has released the lock,
 * nothing about that loss interrupts it any more: by then the thread runs something else (the next
 * request of a pool), which the interrupt would break.
 */
class InterruptAfterReleaseTest {

    /** One scheduler thread: the test's own task on it runs after the loss's renewal task. */
    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime(1);

    private ExecutorService workers;

    @AfterEach
    void stop() {
        if (workers != null) {
            workers.shutdownNow();
        }
    }

    @Test
    void theWorkerIsInterruptedAtTheLossAndNeverAfterItReleased() throws Exception {
        FaultyStore store = new FaultyStore();
        CountDownLatch reporting = new CountDownLatch(1);
        CountDownLatch workerMovedOn = new CountDownLatch(1);
        CountDownLatch observerDone = new CountDownLatch(1);
        LockListener slowObserver = new LockListener() {
            @Override
            public void lost(HeldLock lock, LockLostException reason) {
                reporting.countDown();
                try {
                    // A synchronous observer of the loss that takes a while.
                    workerMovedOn.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    observerDone.countDown();
                }
            }
        };
        LockEngine engine = engines.engine(store)
                .ttl(30_000)
                .timeout(1_000)
                .renewEvery(50)
                .interruptOnLoss()
                .listener(slowObserver)
                .build();

        ExecutorService pool = Executors.newSingleThreadExecutor();
        workers = pool;
        CompletableFuture<String> worker = CompletableFuture.supplyAsync(
                () -> {
                    HeldLock lock = engine.acquire("job", 30_000, 1_000, true);
                    store.renewAnswersFalse = true;
                    try {
                        Thread.sleep(60_000); // the work
                        return "not interrupted";
                    } catch (InterruptedException e) {
                        if (observerDone.getCount() == 0) {
                            return "interrupted only after the observer had run";
                        }
                    }
                    lock.close(); // the work is over
                    workerMovedOn.countDown();
                    try {
                        // The next job of this pool thread: the loss's report ends meanwhile.
                        if (!observerDone.await(60, TimeUnit.SECONDS)) {
                            return "the observer did not end";
                        }
                        engines.scheduler().submit(() -> {}).get(60, TimeUnit.SECONDS);
                        Thread.sleep(100);
                        return Thread.interrupted() ? "interrupted after it had released the lock" : "ok";
                    } catch (InterruptedException e) {
                        return "interrupted after it had released the lock";
                    } catch (Exception e) {
                        return e.toString();
                    }
                },
                pool);

        assertThat(worker.get(120, TimeUnit.SECONDS)).isEqualTo("ok");
        assertThat(reporting.getCount()).as("the observer was told").isZero();
    }
}
