package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.Acquisition;
import jakarta.ejb.NoMoreTimeoutsException;
import jakarta.ejb.ScheduleExpression;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerHandle;
import java.io.Serializable;
import java.util.Date;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hold of a firing whose container reports the next one: half the interval from an EJB timer's
 * {@code getNextTimeout()}, at most 30 s, never past the next firing. (The container itself is an
 * application server's: the server runs of the TCK cover it; here the timer is a plain implementation of
 * the API interface.)
 */
class ContainerTimersTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** A timer whose next timeout is a given time, or none. */
    record FixedTimer(Date next) implements Timer {
        @Override
        public Date getNextTimeout() {
            if (next == null) {
                throw new NoMoreTimeoutsException("last");
            }
            return next;
        }

        @Override
        public void cancel() {}

        @Override
        public long getTimeRemaining() {
            return getNextTimeout().getTime() - System.currentTimeMillis();
        }

        @Override
        public ScheduleExpression getSchedule() {
            return null;
        }

        @Override
        public boolean isCalendarTimer() {
            return true;
        }

        @Override
        public boolean isPersistent() {
            return false;
        }

        @Override
        public Serializable getInfo() {
            return null;
        }

        @Override
        public TimerHandle getHandle() {
            return null;
        }
    }

    @Test
    void theIntervalComesFromTheTimer() {
        long now = System.currentTimeMillis();
        assertThat(ContainerTimers.intervalMillis(new FixedTimer(new Date(now + 4_000)), now))
                .isEqualTo(4_000);
        assertThat(ContainerTimers.intervalMillis(new FixedTimer(null), now)).isEqualTo(Intervals.NO_NEXT);
        assertThat(ContainerTimers.intervalMillis(null, now)).isEqualTo(Intervals.UNKNOWN);
        assertThat(ContainerTimers.intervalMillis("not a timer", now)).isEqualTo(Intervals.UNKNOWN);
    }

    @Test
    void theDefaultHoldIsHalfTheIntervalAtMostThirtySecondsNeverPastTheNextFiring() {
        SchedulePlan timed = new SchedulePlan("C.m", "", "k", OptionalLong.empty(), OptionalLong.empty());
        assertThat(timed.holdFor(4_000)).isEqualTo(2_000);
        assertThat(timed.holdFor(3_600_000)).isEqualTo(30_000);
        assertThat(timed.holdFor(Intervals.NO_NEXT)).as("the last firing").isEqualTo(30_000);
        assertThat(timed.holdFor(Intervals.UNKNOWN))
                .as("a direct call: no planned time")
                .isZero();
        SchedulePlan held = new SchedulePlan("C.m", "", "k", OptionalLong.of(10_000), OptionalLong.empty());
        assertThat(held.holdFor(60_000)).isEqualTo(10_000);
        assertThat(held.holdFor(4_000)).as("never past the next firing").isEqualTo(4_000);
        assertThat(held.holdFor(Intervals.UNKNOWN)).isEqualTo(10_000);
        SchedulePlan plain = new SchedulePlan("C.m", "", "k", OptionalLong.empty(), OptionalLong.of(600));
        assertThat(plain.holdFor(Intervals.UNKNOWN)).isEqualTo(300);
        assertThat(plain.holdFor(2_000)).as("the container's word wins").isEqualTo(1_000);
    }

    @Test
    void aTimedFiringHoldsHalfTheTimersInterval() throws Exception {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = Engines.engine(store, scheduler, 30_000, 1_000);
        SchedulePlan plan = new SchedulePlan("C.m", "", "schedule:C.m", OptionalLong.empty(), OptionalLong.empty());
        List<Object> skipped = new CopyOnWriteArrayList<>();
        long fired = System.nanoTime();
        Timer timer = new FixedTimer(new Date(System.currentTimeMillis() + 1_000));
        assertThat(ScheduledFiring.fire(plan, timer, m -> engine, skipped::add, () -> "ran"))
                .isEqualTo("ran");
        assertThat(ScheduledFiring.fire(plan, timer, m -> engine, skipped::add, () -> "ran again"))
                .as("held")
                .isNull();
        assertThat(skipped).hasSize(1);
        while (System.nanoTime() - fired < 400_000_000L) {
            assertThat(store.acquire(Acquisition.of("schedule:C.m", "other", 60_000))
                            .isAcquired())
                    .as("held for 500 ms")
                    .isFalse();
            Thread.sleep(20);
        }
        // free after the hold, before the next planned firing (polled: a loaded machine releases a little late)
        boolean free = false;
        while (!free && System.nanoTime() - fired < 950_000_000L) {
            free = store.acquire(Acquisition.of("schedule:C.m", "other", 60_000))
                    .isAcquired();
            Thread.sleep(10);
        }
        assertThat(free)
                .as("free after the hold, before the next planned firing")
                .isTrue();
    }
}
