package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.event.ScheduleSkipped;
import dev.baton.event.ScheduleSkipped.Reason;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.KeyFormat;
import jakarta.ejb.ScheduleExpression;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerHandle;
import java.io.Serializable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two application instances (two engines on one shared store) fire the same planned times at moments minutes
 * apart, on virtual time: the first to claim a planned time runs it, a later firing of it skips within the
 * retention, whatever the skew; the run lock keeps runs of consecutive planned times from overlapping. With
 * the former design (the lock kept for half the interval, at most 30 s, after a firing) every second firing
 * below that comes more than 30 s late would have run again.
 */
class PlannedTimeClaimTest {

    /** The instances' wall clocks start here: 10:00 UTC, on a boundary of every period used below. */
    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    static final String KEY = "schedule:C.m";

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private VirtualTime time;
    private MemoryLockStore store;
    private LockEngine a;
    private LockEngine b;
    private Clock clock;
    private final List<ScheduleSkipped> skips = new CopyOnWriteArrayList<>();
    private final AtomicInteger runs = new AtomicInteger();

    @BeforeEach
    void start() {
        time = engines.time();
        store = new MemoryLockStore(time::nanoTime);
        a = engines.engine(store).ttl(30_000).build();
        b = engines.engine(store).ttl(30_000).build();
        clock = new VirtualClock(time);
    }

    /** Wall-clock time on virtual time: {@link #START} plus what has elapsed. */
    static final class VirtualClock extends Clock {
        private final VirtualTime time;

        VirtualClock(VirtualTime time) {
            this.time = time;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return START.plusMillis(time.millis());
        }
    }

    /** An EJB timer whose next timeout is fixed; a calendar timer or an interval timer. */
    record TestTimer(Date next, boolean calendar) implements Timer {
        @Override
        public Date getNextTimeout() {
            return next;
        }

        @Override
        public void cancel() {}

        @Override
        public long getTimeRemaining() {
            return 0;
        }

        @Override
        public ScheduleExpression getSchedule() {
            return null;
        }

        @Override
        public boolean isCalendarTimer() {
            return calendar;
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

    private static SchedulePlan everyFiveMinutes() {
        return new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), OptionalLong.of(300_000));
    }

    private static SchedulePlan plan(OptionalLong period, OptionalLong retention, boolean retryFailed) {
        return new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), period, Optional.empty(), retention, retryFailed);
    }

    private Object fire(LockEngine engine, SchedulePlan plan, Object timer, ScheduledFiring.Work work)
            throws Exception {
        return ScheduledFiring.fire(plan, timer, m -> engine, skips::add, KeyFormat.PLAIN, work, clock);
    }

    private Object fire(LockEngine engine, SchedulePlan plan, Object timer) throws Exception {
        return fire(engine, plan, timer, () -> runs.incrementAndGet());
    }

    /** Moves both instances' time to {@code millis} after {@link #START}. */
    private void at(long millis) {
        time.advanceMillis(millis - time.millis());
    }

    private static long epoch(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    private boolean heldInStore(String key) {
        AcquireResult result = store.acquire(Acquisition.of(key, "someone-else", 1));
        if (result.isAcquired()) {
            store.release(key, "someone-else"); // virtual time stands still: it would stay held
        }
        return !result.isAcquired();
    }

    @Test
    void aSecondInstanceFiringTheSamePeriodMinutesLaterSkips() throws Exception {
        SchedulePlan plan = everyFiveMinutes();
        at(1_000);
        assertThat(fire(a, plan, null)).isEqualTo(1);
        at(181_000); // 10:03:01, 3 minutes later, the same 5-minute period
        assertThat(fire(b, plan, null)).isNull();
        assertThat(runs).as("3 min late, still the planned time 10:00: claimed").hasValue(1);
        assertThat(skips).singleElement().satisfies(skip -> {
            assertThat(skip.reason()).isEqualTo(Reason.PLANNED_TIME_CLAIMED);
            assertThat(skip.key()).isEqualTo(KEY);
            // the default retention, 3 periods (15 min) from the claim at 10:00:01
            assertThat(skip.remainingLease()).contains(Duration.ofMinutes(12));
        });
        assertThat(heldInStore(KEY))
                .as("the run lock was released when the run ended")
                .isFalse();
        at(301_000); // 10:05:01: the next period
        assertThat(fire(b, plan, null)).isEqualTo(2);
        at(359_000);
        assertThat(fire(a, plan, null)).isNull();
        assertThat(runs).hasValue(2);
        assertThat(skips).hasSize(2);
    }

    @Test
    void anEjbCalendarTimerIsNamedByItsNextTimeoutWhateverTheSkew() throws Exception {
        SchedulePlan plan = new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), OptionalLong.empty());
        Timer tenOhFive = new TestTimer(new Date(epoch("2026-12-01T10:05:00Z")), true);
        at(200);
        assertThat(fire(a, plan, tenOhFive)).isEqualTo(1);
        assertThat(heldInStore(KEY + "@" + epoch("2026-12-01T10:05:00Z")))
                .as("the claim, named by the next timeout")
                .isTrue();
        at(150_000); // the other instance's timer fires the same planned time 2.5 min late
        assertThat(fire(b, plan, tenOhFive)).isNull();
        assertThat(runs).hasValue(1);
        assertThat(skips).singleElement().extracting(ScheduleSkipped::reason).isEqualTo(Reason.PLANNED_TIME_CLAIMED);
        at(300_100); // 10:05:00.1, the next planned time: its next timeout is 10:10
        assertThat(fire(b, plan, new TestTimer(new Date(epoch("2026-12-01T10:10:00Z")), true)))
                .isEqualTo(2);
    }

    @Test
    void aConcurrencyScheduleIsNamedByItsNextRunTime() throws Exception {
        // every 10 minutes on the clock, as a CronTrigger would say
        ScheduleCalendar everyTenMinutes = firedAt -> 600_000 - firedAt.toEpochMilli() % 600_000;
        SchedulePlan plan = new SchedulePlan(
                "C.m",
                "",
                KEY,
                OptionalLong.empty(),
                OptionalLong.empty(),
                Optional.of(everyTenMinutes),
                OptionalLong.empty(),
                false);
        at(50);
        assertThat(fire(a, plan, null)).isEqualTo(1);
        assertThat(heldInStore(KEY + "@" + epoch("2026-12-01T10:10:00Z"))).isTrue();
        at(240_000);
        assertThat(fire(b, plan, null)).as("4 min late, the same planned time").isNull();
        at(600_010);
        assertThat(fire(b, plan, null)).isEqualTo(2);
        assertThat(heldInStore(KEY + "@" + epoch("2026-12-01T10:20:00Z"))).isTrue();
    }

    @Test
    void aRunOutlastingThePeriodMakesTheNextFiringSkipAndTheOneAfterRunsOnce() throws Exception {
        SchedulePlan plan = plan(OptionalLong.of(60_000), OptionalLong.empty(), false);
        at(1_000);
        Object result = fire(a, plan, null, () -> {
            runs.incrementAndGet();
            at(61_000); // 10:01:01, still running: the other instance fires the next planned time
            assertThat(fire(b, plan, null)).isNull();
            at(91_000); // the run ends 90 s after it began
            return "long run";
        });
        assertThat(result).isEqualTo("long run");
        assertThat(skips).singleElement().satisfies(skip -> {
            assertThat(skip.reason())
                    .as("a run in progress, not a claimed planned time")
                    .isEqualTo(Reason.HELD_ELSEWHERE);
            assertThat(skip.remainingLease()).isPresent();
        });
        assertThat(heldInStore(KEY + "@" + epoch("2026-12-01T10:01:00Z")))
                .as("the skipped firing claimed nothing: it gave the run lock back first")
                .isFalse();
        at(121_000); // 10:02:01
        assertThat(fire(b, plan, null)).isEqualTo(2);
        at(125_000);
        assertThat(fire(a, plan, null)).isNull();
        assertThat(runs).as("the planned time after runs once").hasValue(2);
        assertThat(skips).last().extracting(ScheduleSkipped::reason).isEqualTo(Reason.PLANNED_TIME_CLAIMED);
    }

    @Test
    void aFailedRunKeepsItsPlannedTimeByDefault() throws Exception {
        SchedulePlan plan = plan(OptionalLong.of(300_000), OptionalLong.empty(), false);
        IllegalStateException failure = new IllegalStateException("job failed");
        at(1_000);
        assertThatThrownBy(() -> fire(a, plan, null, () -> {
                    runs.incrementAndGet();
                    throw failure;
                }))
                .isSameAs(failure);
        at(60_000);
        assertThat(fire(b, plan, null)).isNull();
        assertThat(runs).as("the failed run counts as the planned time's run").hasValue(1);
        assertThat(skips).singleElement().extracting(ScheduleSkipped::reason).isEqualTo(Reason.PLANNED_TIME_CLAIMED);
        assertThat(heldInStore(KEY)).as("the run lock is free").isFalse();
    }

    @Test
    void aFailedRunGivesItsPlannedTimeBackWithRetryFailed() throws Exception {
        SchedulePlan plan = plan(OptionalLong.of(300_000), OptionalLong.empty(), true);
        IllegalStateException failure = new IllegalStateException("job failed");
        at(1_000);
        assertThatThrownBy(() -> fire(a, plan, null, () -> {
                    runs.incrementAndGet();
                    at(40_000); // a run longer than the claim's renewal interval: it is renewed meanwhile
                    throw failure;
                }))
                .isSameAs(failure);
        assertThat(heldInStore(KEY + "@" + START.toEpochMilli())).as("released").isFalse();
        at(60_000);
        assertThat(fire(b, plan, null)).as("retried by the other instance").isEqualTo(2);
        at(120_000);
        assertThat(fire(a, plan, null))
                .as("a successful retry keeps the planned time")
                .isNull();
        assertThat(runs).hasValue(2);
        assertThat(skips).singleElement().extracting(ScheduleSkipped::reason).isEqualTo(Reason.PLANNED_TIME_CLAIMED);
    }

    @Test
    void aRetriedPlanKeepsItsClaimForTheRetentionFromTheClaimNotFromTheRunsEnd() throws Exception {
        SchedulePlan plan = plan(OptionalLong.of(3_600_000), OptionalLong.of(120_000), true);
        at(1_000);
        fire(a, plan, null, () -> {
            at(50_000); // renewed at ttl/3 intervals meanwhile, each to 2 min from then
            return runs.incrementAndGet();
        });
        at(120_999);
        assertThat(heldInStore(KEY + "@" + START.toEpochMilli())).isTrue();
        at(121_001);
        assertThat(heldInStore(KEY + "@" + START.toEpochMilli()))
                .as("2 min after the claim at 10:00:01, whatever the renewals during the run")
                .isFalse();
    }

    @Test
    void theClaimExpiresAfterTheRetentionAndTheSamePlannedTimeCanBeClaimedAgain() throws Exception {
        SchedulePlan plan = plan(OptionalLong.of(3_600_000), OptionalLong.of(120_000), false);
        at(1_000);
        assertThat(fire(a, plan, null)).isEqualTo(1);
        at(120_999);
        assertThat(fire(b, plan, null)).as("within the retention").isNull();
        at(121_000);
        assertThat(fire(b, plan, null))
                .as("the same hour, after the retention: claimable again")
                .isEqualTo(2);
        at(200_000);
        assertThat(fire(a, plan, null)).as("claimed again, kept again").isNull();
        assertThat(runs).hasValue(2);
    }

    @Test
    void aFiringWithoutAPlannedTimeTakesTheRunLockOnly() throws Exception {
        // a direct call of an EJB timeout method: no timer, no period
        SchedulePlan plan = new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), OptionalLong.empty());
        assertThat(fire(a, plan, null)).isEqualTo(1);
        assertThat(fire(b, plan, null)).isEqualTo(2);
        assertThat(skips).isEmpty();
        assertThat(heldInStore(KEY)).isFalse();
    }

    @Test
    void aSetHoldStillKeepsTheRunLockAfterTheFiring() throws Exception {
        SchedulePlan plan = new SchedulePlan("C.m", "", KEY, OptionalLong.of(20_000), OptionalLong.of(300_000));
        at(1_000);
        fire(a, plan, null);
        at(20_999);
        assertThat(heldInStore(KEY)).as("within the hold").isTrue();
        at(21_001);
        assertThat(heldInStore(KEY)).as("after the hold").isFalse();
    }

    @Test
    void periodsAreAlignedOnTheEpoch() {
        long fiveMinutes = 300_000;
        assertThat(PlannedTime.bucket(epoch("2026-12-01T10:04:59.999Z"), fiveMinutes)
                        .identityMillis())
                .isEqualTo(epoch("2026-12-01T10:00:00Z"));
        assertThat(PlannedTime.bucket(epoch("2026-12-01T10:05:00Z"), fiveMinutes)
                        .identityMillis())
                .isEqualTo(epoch("2026-12-01T10:05:00Z"));
        assertThat(PlannedTime.bucket(-1, 1_000).identityMillis())
                .as("floor, not truncation")
                .isEqualTo(-1_000);
        assertThat(PlannedTime.bucket(epoch("2026-12-01T10:07:00Z"), 7 * 60_000).identityMillis() % (7 * 60_000))
                .isZero();
        assertThat(new PlannedTime(epoch("2026-12-01T10:05:00Z"), fiveMinutes).claimKey(KEY))
                .isEqualTo("schedule:C.m@1796119500000");
        assertThatThrownBy(() -> PlannedTime.bucket(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whatNamesAFiring() {
        Instant firedAt = Instant.parse("2026-12-01T10:02:03.004Z");
        SchedulePlan timed = new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), OptionalLong.empty());
        assertThat(timed.plannedTime(new TestTimer(new Date(epoch("2026-12-01T10:05:00Z")), true), firedAt))
                .contains(new PlannedTime(epoch("2026-12-01T10:05:00Z"), 176_996));
        assertThat(timed.plannedTime(new TestTimer(new Date(epoch("2026-12-01T10:02:33.000Z")), false), firedAt))
                .as("an interval timer of about 30 s: its 30 s periods on the epoch")
                .contains(new PlannedTime(epoch("2026-12-01T10:02:00Z"), 30_000));
        SchedulePlan periodic = new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), OptionalLong.of(60_000));
        assertThat(periodic.plannedTime(new TestTimer(new Date(epoch("2026-12-01T10:02:30.000Z")), false), firedAt))
                .as("an interval timer with a period: the period's buckets")
                .contains(new PlannedTime(epoch("2026-12-01T10:02:00Z"), 60_000));
        assertThat(periodic.plannedTime(null, firedAt))
                .contains(new PlannedTime(epoch("2026-12-01T10:02:00Z"), 60_000));
        assertThat(timed.plannedTime(null, firedAt))
                .as("a direct call without a period")
                .isEmpty();
        assertThat(timed.plannedTime(new ContainerTimersTest.FixedTimer(null), firedAt))
                .as("the timer's last firing")
                .isEmpty();
    }

    @Test
    void theDefaultRetentionIsThreeIntervalsAtLeastAMinute() {
        SchedulePlan plan = new SchedulePlan("C.m", "", KEY, OptionalLong.empty(), OptionalLong.empty());
        assertThat(plan.retentionFor(new PlannedTime(0, 300_000))).isEqualTo(900_000);
        assertThat(plan.retentionFor(new PlannedTime(0, 2_000))).isEqualTo(60_000);
        assertThat(plan.retentionFor(new PlannedTime(0, Long.MAX_VALUE / 2)))
                .as("at most 365 days")
                .isEqualTo(365L * 24 * 3_600_000);
        SchedulePlan set = plan(OptionalLong.empty(), OptionalLong.of(10_000), false);
        assertThat(set.retentionFor(new PlannedTime(0, 300_000))).isEqualTo(10_000);
    }
}
