package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.Acquisition;
import dev.baton.spi.KeyFormat;
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
 * Firings whose container reports the next one: an EJB timer's {@code getNextTimeout()} gives the interval
 * (which bounds a hold) and names the planned firing, so a second instance's late firing of it skips. (The container itself is an
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
    void withoutAHoldSetTheRunLockIsNotHeldAfterTheRunAndASetHoldNeverReachesPastTheNextFiring() {
        SchedulePlan timed = new SchedulePlan("C.m", "", "k", OptionalLong.empty(), OptionalLong.empty());
        assertThat(timed.holdFor(4_000)).isZero();
        assertThat(timed.holdFor(Intervals.NO_NEXT)).isZero();
        assertThat(timed.holdFor(Intervals.UNKNOWN)).isZero();
        SchedulePlan held = new SchedulePlan("C.m", "", "k", OptionalLong.of(10_000), OptionalLong.empty());
        assertThat(held.holdFor(60_000)).isEqualTo(10_000);
        assertThat(held.holdFor(4_000)).as("never past the next firing").isEqualTo(4_000);
        assertThat(held.holdFor(Intervals.UNKNOWN)).isEqualTo(10_000);
        SchedulePlan plain = new SchedulePlan("C.m", "", "k", OptionalLong.of(500), OptionalLong.of(600));
        assertThat(plain.holdFor(Intervals.UNKNOWN)).isEqualTo(500);
        assertThat(plain.holdFor(200)).as("the container's word wins").isEqualTo(200);
    }

    /**
     * Two instances, one calendar timer whose next timeout is 2 s away: the second instance fires the same
     * planned time 1.2 s after the first, later than the former default hold (half the interval, 1 s) but
     * with the same next timeout: it skips. Written against the five-argument {@code fire} only, so it also
     * runs on the hold design, where it fails (the second firing runs).
     */
    @Test
    void aSecondInstanceFiringTheSamePlannedTimeLaterThanTheFormerHoldSkips() throws Exception {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine first = Engines.engine(store, scheduler, 30_000, 1_000);
        LockEngine second = Engines.engine(store, scheduler, 30_000, 1_000);
        SchedulePlan plan = new SchedulePlan("C.m", "", "schedule:C.m", OptionalLong.empty(), OptionalLong.empty());
        List<Object> skipped = new CopyOnWriteArrayList<>();
        Timer timer = new FixedTimer(new Date(System.currentTimeMillis() + 2_000));
        long fired = System.nanoTime();
        assertThat(ScheduledFiring.fire(plan, timer, m -> first, skipped::add, KeyFormat.PLAIN, () -> "ran"))
                .isEqualTo("ran");
        Thread.sleep(Math.max(0, 1_200 - (System.nanoTime() - fired) / 1_000_000));
        assertThat(ScheduledFiring.fire(plan, timer, m -> second, skipped::add, KeyFormat.PLAIN, () -> "ran again"))
                .as("the same planned time, 1.2 s later")
                .isNull();
        assertThat(skipped).hasSize(1);
        assertThat(store.acquire(Acquisition.of("schedule:C.m", "other", 60_000))
                        .isAcquired())
                .as("the run lock itself is free: the claim keeps the planned time")
                .isTrue();
    }
}
