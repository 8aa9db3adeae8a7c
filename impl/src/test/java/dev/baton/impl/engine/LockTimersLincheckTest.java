package dev.baton.impl.engine;

import dev.baton.impl.testing.ModelChecks;
import dev.baton.impl.time.EngineTime;
import dev.baton.impl.time.FairPermit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The timer heap of {@link LockTimers}, model-checked with Lincheck: threads plan, re-plan and drop two locks'
 * renewals and lease checks while the clock's thread moves time and runs the wake-ups that fall due (their handlers
 * outside the monitor, as on the scheduler). The wake-up loop is not linearizable (it runs what is due one lock at a
 * time, so a timer planned meanwhile may run in the same wake-up), so what is checked is the heap's own guarantee at
 * every quiescent point: a lock is in the heap exactly while it has a timer planned, and then a wake-up is planned no
 * later than the earliest timer (or now, when that has passed), give or take the clock's move between the timers
 * reading it and the scheduler taking the wake-up (Lincheck caught two first versions of this check asking for more); and no lease check ever runs before its time. The clock starts 15 ms before a
 * {@code long} overflows, so times are compared by difference or fail.
 */
public class LockTimersLincheckTest {

    private static final int LOCKS = 2;
    /** The longest move of the clock in one {@link #advance}: 3 tens of milliseconds. */
    private static final long LONGEST_STEP = TimeUnit.MILLISECONDS.toNanos(30);

    private final ManualTime time = new ManualTime();
    private volatile boolean ranEarly;
    private final LockTimers timers = new LockTimers(time, new LockTimers.Handler() {
        @Override
        public void renewalDue(HeldLock lock) {}

        @Override
        public void leaseEndDue(HeldLock lock, long dueAtNanos) {
            if (time.nanoTime() - dueAtNanos < 0) {
                ranEarly = true;
            }
        }
    });
    private final HeldLock[] locks = new HeldLock[LOCKS];

    public LockTimersLincheckTest() {
        for (int i = 0; i < LOCKS; i++) {
            locks[i] = new HeldLock(null, null, "k" + i, "k" + i, "owner", 1, 60_000, 0, null, false);
        }
    }

    /** A lock just acquired: renewal and lease check in one plan. */
    @Operation
    public void plan(@Param(gen = IntGen.class, conf = "0:1") int lock) {
        timers.plan(locks[lock], time.in(10), time.in(20));
    }

    @Operation
    public void renewIn(
            @Param(gen = IntGen.class, conf = "0:1") int lock, @Param(gen = IntGen.class, conf = "0:2") int tens) {
        timers.renewAt(locks[lock], time.in(10 * tens));
    }

    @Operation
    public void watchIn(
            @Param(gen = IntGen.class, conf = "0:1") int lock, @Param(gen = IntGen.class, conf = "0:2") int tens) {
        timers.watchAt(locks[lock], time.in(10 * tens));
    }

    @Operation
    public void cancelRenewal(@Param(gen = IntGen.class, conf = "0:1") int lock) {
        timers.cancelRenewal(locks[lock]);
    }

    /** What {@link LockRenewal#stop} does to the timers. */
    @Operation
    public void remove(@Param(gen = IntGen.class, conf = "0:1") int lock) {
        timers.remove(locks[lock]);
    }

    /** The scheduler's thread: time moves on, and the wake-ups due run. */
    @Operation(nonParallelGroup = "clock")
    public void advance(@Param(gen = IntGen.class, conf = "0:3") int tens) {
        time.advance(10 * tens);
    }

    @Validate
    public void heapAndWakeUpAgree() {
        ModelChecks.check(!ranEarly, "no lease check runs before its time");
        synchronized (timers) {
            int planned = 0;
            Long earliest = null;
            for (HeldLock lock : locks) {
                boolean hasTimer = lock.renewPlanned || lock.watchPlanned;
                ModelChecks.check(
                        (lock.heapIndex >= 0) == hasTimer, lock.key() + " is in the heap exactly while it has a timer");
                if (hasTimer) {
                    planned++;
                    long at = lock.nextTimerAt();
                    earliest = earliest == null || at - earliest < 0 ? at : earliest;
                }
            }
            ModelChecks.check(timers.planned() == planned, "the heap holds the locks with a timer");
            if (earliest != null) {
                // A timer already due gets a wake-up at once; and the clock may move between the timers reading it
                // and the scheduler taking the wake-up (as on a real scheduler), making it late by that step.
                long dueBy = (earliest - time.nanoTime() > 0 ? earliest : time.nanoTime()) + LONGEST_STEP;
                Long wake = time.earliestTask();
                ModelChecks.check(
                        wake != null && wake - dueBy <= 0,
                        "a wake-up is planned while a timer is, no later than the earliest (or now)");
            }
        }
    }

    @Test
    void theHeapKeepsItsTimersAndItsWakeUpUnderModelChecking() {
        // Two operations a thread: each takes the monitor once or twice, and longer scenarios add little but time.
        ModelChecks.modelChecking().actorsPerThread(2).check(getClass());
    }

    @Test
    void theHeapKeepsItsTimersAndItsWakeUpUnderStress() {
        ModelChecks.stress().check(getClass());
    }

    /** Time that moves when {@link #advance} says, running the tasks due then on the caller's thread. */
    static final class ManualTime implements EngineTime {
        private final List<long[]> due = new ArrayList<>();
        private final List<Runnable> tasks = new ArrayList<>();
        private volatile long now = Long.MAX_VALUE - TimeUnit.MILLISECONDS.toNanos(15);

        @Override
        public long nanoTime() {
            return now;
        }

        long in(long millis) {
            return now + TimeUnit.MILLISECONDS.toNanos(millis);
        }

        @Override
        public synchronized Scheduled schedule(Runnable task, long delayNanos) {
            long[] at = {now + Math.max(0, delayNanos)};
            due.add(at);
            tasks.add(task);
            return () -> {
                synchronized (this) {
                    int index = due.indexOf(at);
                    if (index >= 0) {
                        due.remove(index);
                        tasks.remove(index);
                    }
                }
            };
        }

        /** @return when the earliest task planned is due, or null */
        synchronized Long earliestTask() {
            Long earliest = null;
            for (long[] at : due) {
                earliest = earliest == null || at[0] - earliest < 0 ? at[0] : earliest;
            }
            return earliest;
        }

        void advance(long millis) {
            now += TimeUnit.MILLISECONDS.toNanos(millis);
            while (true) {
                Runnable next = null;
                synchronized (this) {
                    for (int i = 0; i < due.size(); i++) {
                        if (due.get(i)[0] - now <= 0) {
                            due.remove(i);
                            next = tasks.remove(i);
                            break;
                        }
                    }
                }
                if (next == null) {
                    return;
                }
                next.run();
            }
        }

        @Override
        public void park(Object blocker, long nanos) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean tryAcquire(FairPermit permit, long timeoutNanos) {
            throw new UnsupportedOperationException();
        }
    }
}
