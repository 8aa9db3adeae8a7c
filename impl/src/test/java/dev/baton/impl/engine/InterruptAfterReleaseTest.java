package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockLostException;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.testing.Engines;
import dev.baton.impl.testing.FaultyStore;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With interrupt-on-loss, a loss that is being reported while the worker finishes its work and releases
 * the lock must not interrupt the worker afterwards: by then the thread runs something else (the next
 * request of a pool), which the interrupt would break.
 */
class InterruptAfterReleaseTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "test-renewal");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void aLossReportedWhileTheWorkerReleasesDoesNotInterruptItAfterwards() throws Exception {
        FaultyStore store = new FaultyStore();
        CountDownLatch reporting = new CountDownLatch(1);
        CountDownLatch workerMovedOn = new CountDownLatch(1);
        LockListener slowObserver = new LockListener() {
            @Override
            public void lost(HeldLock lock, LockLostException reason) {
                reporting.countDown();
                try {
                    // A synchronous observer of the loss that takes a while.
                    workerMovedOn.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        LockEngine engine = new LockEngine(new ManagerSettings("", Optional.empty(), 30_000, 1_000, "", 50, true), store,
                scheduler, Engines.STORE_CALLS, slowObserver);
        HeldLock lock = engine.acquire("job", 30_000, 1_000, true);
        store.renewAnswersFalse = true;
        assertThat(reporting.await(60, TimeUnit.SECONDS)).isTrue();

        lock.close(); // the work is over
        workerMovedOn.countDown();
        // Wait for the loss report to end: the scheduler's only thread runs it.
        boolean interrupted = false;
        try {
            scheduler.submit(() -> { }).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        interrupted |= Thread.interrupted();
        assertThat(interrupted).as("the worker was interrupted after it had released the lock").isFalse();
        engine.close();
    }
}
