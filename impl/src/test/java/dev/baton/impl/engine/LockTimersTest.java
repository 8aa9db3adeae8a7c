package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.VirtualTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One timing structure for all held locks: however many locks an engine holds, its scheduler has one
 * wake-up planned (not a renewal and a lease watchdog per lock), and a released lock leaves nothing behind.
 */
class LockTimersTest {

    private static final int LOCKS = 1_000;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();
    private final FaultyStore store = new FaultyStore(time::nanoTime);

    @Test
    void manyHeldLocksPlanOneWakeUpAndAreEachRenewedOnTime() {
        LockEngine engine = engines.engine(store).ttl(300).build();
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < LOCKS; i++) {
            locks.add(engine.acquire("timed-" + i, 300, 1_000, true));
            if (i % 100 == 99) {
                time.advanceMillis(7); // spread over 70 ms: each lock its own renewal time
            }
        }
        assertThat(time.plannedMillis())
                .as("timers planned on the scheduler for %d held locks", LOCKS)
                .hasSize(1);
        assertThat(engine.renewals().timed()).isEqualTo(LOCKS);

        time.advanceMillis(10 * 300);
        // The memory store renews in batches: at 100 ms the locks due by 150 ms (taken by 49 ms); at 156 ms
        // the rest and, taken along, the first 800 (due at 200 ms); then all together every 100 ms to 3,056 ms.
        assertThat(store.renewCalls.get()).as("renewal batches in 3 s").isEqualTo(2 + 29);
        assertThat(locks)
                .allSatisfy(lock -> assertThat(lock.isHeld()).as(lock.key()).isTrue());
        assertThat(time.plannedMillis()).hasSize(1);

        locks.subList(0, LOCKS / 2).forEach(HeldLock::release);
        assertThat(engine.renewals().timed()).isEqualTo(LOCKS / 2);
        locks.subList(LOCKS / 2, LOCKS).forEach(HeldLock::release);
        assertThat(engine.renewals().timed())
                .as("timers left after every release")
                .isZero();
        assertThat(time.plannedMillis())
                .as("the wake-up is left planned (no cancel and re-plan per hold)")
                .hasSizeLessThanOrEqualTo(1);
        time.advanceMillis(300);
        assertThat(time.plannedMillis())
                .as("wake-ups left once it ran and found nothing")
                .isEmpty();
    }

    @Test
    void locksTakenOneAfterTheOtherShareTheWakeUpLeftPlanned() {
        LockEngine engine = engines.engine(store).ttl(300).build();
        engine.acquire("first", 300, 1_000, true).release();
        List<Long> planned = time.plannedMillis();
        assertThat(planned).as("left after the release").containsExactly(100L);
        for (int i = 0; i < 50; i++) {
            time.advanceMillis(1);
            HeldLock lock = engine.acquire("next-" + i, 300, 1_000, true);
            assertThat(time.plannedMillis()).as("still the one wake-up").containsExactly(100L);
            lock.release();
        }
        HeldLock held = engine.acquire("held", 300, 1_000, true); // taken at 50 ms: renewed at 150 ms
        time.advanceMillis(50);
        assertThat(time.plannedMillis())
                .as("the early wake-up found nothing due and planned the next")
                .containsExactly(150L);
        time.advanceMillis(50);
        assertThat(store.renewCalls.get()).isOne();
        assertThat(held.isHeld()).isTrue();
        held.release();
        engine.close();
        assertThat(time.plannedMillis()).as("cancelled at shutdown").isEmpty();
    }

    @Test
    void aLockTakenWithAShorterLeaseThanTheOthersMovesTheWakeUpEarlier() {
        LockEngine engine = engines.engine(store).ttl(3_000).build();
        HeldLock slow = engine.acquire("slow", 3_000, 1_000, true); // renewed at 1,000 ms
        assertThat(time.plannedMillis()).containsExactly(1_000L);
        HeldLock fast = engine.acquire("fast", 300, 1_000, true); // renewed at 100 ms
        assertThat(time.plannedMillis())
                .as("the wake-up moved to the earlier lock's renewal")
                .containsExactly(100L);
        time.advanceMillis(100);
        assertThat(store.renewCalls.get()).isOne();
        assertThat(time.plannedMillis()).containsExactly(200L);
        fast.release();
        assertThat(time.plannedMillis())
                .as("the wake-up is left early; it finds nothing due and plans the next")
                .containsExactly(200L);
        time.advanceMillis(100);
        assertThat(time.plannedMillis()).containsExactly(1_000L);
        time.advanceMillis(800);
        assertThat(store.renewCalls.get()).isEqualTo(2);
        assertThat(slow.isHeld()).isTrue();
        slow.release();
        assertThat(time.plannedMillis()).as("left planned").containsExactly(2_000L);
        time.advanceMillis(1_000);
        assertThat(time.plannedMillis())
                .as("it ran, found nothing and planned nothing")
                .isEmpty();
    }
}
