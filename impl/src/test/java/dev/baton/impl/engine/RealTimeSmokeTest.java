package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The production time ({@code System.nanoTime()} and a real scheduler) with the same engine the virtual-time
 * tests drive: renewals keep a lease, a waiter gets a key when its holder's lease ends. Only liveness is
 * asserted, with wide margins; the exact schedules are the virtual-time tests' job.
 */
class RealTimeSmokeTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    @Test
    void renewalsKeepAShortLeaseForSeveralTtls() throws Exception {
        FaultyStore store = new FaultyStore();
        LockEngine engine = engines.engine(store).ttl(600).build();
        HeldLock lock = engine.acquire("renewed", 600, 1_000, true);
        Thread.sleep(1_800);
        assertThat(lock.isHeld()).as("held; lost: %s", lock.lossReason()).isTrue();
        assertThat(store.acquire(Acquisition.of("renewed", "intruder-owner", 600))
                        .isAcquired())
                .isFalse();
        assertThat(store.renewCalls.get()).isGreaterThanOrEqualTo(2);
        assertThat(lock.release()).isTrue();
    }

    @Test
    void aWaiterGetsTheKeyWhenItsHoldersLeaseEnds() {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = engines.engine(store).ttl(30_000).timeout(10_000).build();
        assertThat(store.acquire(Acquisition.of("crashed", "another-instance-owner", 300))
                        .isAcquired())
                .isTrue();
        long start = System.nanoTime();
        try (HeldLock lock = engine.acquire("crashed", 30_000, 10_000, true)) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(TimeUnit.NANOSECONDS.toMillis(lock.leaseEndNanos() - System.nanoTime()))
                    .isPositive();
        }
    }

    @Test
    void locksTakenAndReleasedFromManyThreadsWhileRenewalsRunLeaveNoTimerBehind() throws Exception {
        FaultyStore store = new FaultyStore();
        LockEngine engine = engines.engine(store).ttl(1_000).build(); // renewed every 333 ms
        HeldLock kept = engine.acquire("kept", 1_000, 1_000, true);
        int threads = 4;
        int rounds = 2_000;
        List<Thread> workers = new ArrayList<>();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            String prefix = "worker-" + t + "-";
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        // each thread holds a few keys at a time, so plans, renewals and removals interleave
                        HeldLock a = engine.acquire(prefix + (i % 7), 1_000, 1_000, true);
                        HeldLock b = engine.acquire(prefix + "b" + (i % 5), 700, 1_000, true);
                        if (i % 500 == 250) {
                            Thread.sleep(400); // across a renewal of both
                        }
                        assertThat(b.release()).isTrue();
                        assertThat(a.release()).isTrue();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(worker.isAlive()).as(worker.getName() + " finished").isFalse();
        }
        assertThat(failures).isEmpty();
        assertThat(kept.isHeld())
                .as("renewed throughout; lost: %s", kept.lossReason())
                .isTrue();
        assertThat(engine.renewals().timed())
                .as("locks with timers: only the one still held")
                .isOne();
        assertThat(kept.release()).isTrue();
        assertThat(engine.renewals().timed()).isZero();
    }
}
