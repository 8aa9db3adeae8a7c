package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import java.time.Duration;
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
        assertThat(store.acquire("renewed", "intruder-owner", 600).isAcquired()).isFalse();
        assertThat(store.renewCalls.get()).isGreaterThanOrEqualTo(2);
        assertThat(lock.release()).isTrue();
    }

    @Test
    void aWaiterGetsTheKeyWhenItsHoldersLeaseEnds() {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = engines.engine(store).ttl(30_000).timeout(10_000).build();
        assertThat(store.acquire("crashed", "another-instance-owner", 300).isAcquired())
                .isTrue();
        long start = System.nanoTime();
        try (HeldLock lock = engine.acquire("crashed", 30_000, 10_000, true)) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(TimeUnit.NANOSECONDS.toMillis(lock.leaseEndNanos() - System.nanoTime()))
                    .isPositive();
        }
    }
}
