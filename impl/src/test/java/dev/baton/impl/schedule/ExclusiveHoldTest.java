package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Exclusive;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The run lock and the claim across two application instances (two Weld runtimes) on one store, on real
 * time, with the dangerous interleavings forced: a firing 1 s late for the same planned time (with and
 * without a hold), a failing run, a run held by a latch longer than the ttl, and a failing store. The jobs
 * run every hour and the tests start away from an hour's edge, so every firing of a test is of one planned
 * time.
 */
class ExclusiveHoldTest {

    /** New for each test: a hold left by the previous test would skip the first firing. */
    static volatile FaultyStore SHARED;

    static final AtomicInteger RUNS = new AtomicInteger();
    static final Queue<ScheduleSkipped> SKIPS = new ConcurrentLinkedQueue<>();
    static volatile CountDownLatch running;
    static volatile CountDownLatch finish;
    static volatile RuntimeException failure;

    public static class SharedStore {
        @Produces
        @Singleton
        LockStore store() {
            return SHARED;
        }
    }

    /** Every hour, with a hold of 2 s. */
    @ApplicationScoped
    public static class HeldJob {
        @Exclusive(period = "1h", hold = "2s")
        public void run() {
            RUNS.incrementAndGet();
        }
    }

    /** Every hour, no hold. */
    @ApplicationScoped
    public static class Job {
        @Exclusive(period = "1h")
        public void run() throws InterruptedException {
            RUNS.incrementAndGet();
            CountDownLatch started = running;
            if (started != null) {
                started.countDown();
                finish.await();
            }
            RuntimeException e = failure;
            if (e != null) {
                throw e;
            }
        }
    }

    @ApplicationScoped
    public static class Skips {
        void skipped(@Observes ScheduleSkipped event) {
            SKIPS.add(event);
        }
    }

    private final Queue<LogRecord> logs = new ConcurrentLinkedQueue<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logs.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private WeldContainer first;
    private WeldContainer second;
    private Job a;
    private Job b;
    private HeldJob heldA;
    private HeldJob heldB;

    @BeforeEach
    void start() throws InterruptedException {
        awayFromTheEdgeOfAnHour();
        // A short ttl, renewed every 100 ms: a run of 1 s outlasts it many times.
        SHARED = new FaultyStore();
        TestConfig.install("baton.ttl=300ms");
        first = Deployments.weld(SharedStore.class, Job.class, HeldJob.class, Skips.class)
                .initialize();
        second = Deployments.weld(SharedStore.class, Job.class, HeldJob.class, Skips.class)
                .initialize();
        a = first.select(Job.class).get();
        b = second.select(Job.class).get();
        heldA = first.select(HeldJob.class).get();
        heldB = second.select(HeldJob.class).get();
        Logger.getLogger("dev.baton").addHandler(capture);
    }

    @AfterEach
    void stop() {
        Logger.getLogger("dev.baton").removeHandler(capture);
        first.close();
        second.close();
        TestConfig.uninstall();
        RUNS.set(0);
        SKIPS.clear();
        running = null;
        finish = null;
        failure = null;
    }

    @Test
    void aFiringOneSecondLateForTheSamePlannedTimeSkipsAndTheRunLockIsFreeOnceTheRunEnded() throws Exception {
        a.run();
        assertThat(RUNS).hasValue(1);
        assertThat(runLockFree()).as("no hold set: released when the run ended").isTrue();
        Thread.sleep(1_000);
        b.run();
        assertThat(RUNS).as("1 s late: the planned time is claimed").hasValue(1);
        assertThat(SKIPS).singleElement().satisfies(skip -> {
            assertThat(skip.reason()).isEqualTo(ScheduleSkipped.Reason.PLANNED_TIME_CLAIMED);
            assertThat(skip.key()).isEqualTo(KEY);
            // the default retention: 3 hours from the claim
            assertThat(skip.remainingLease().orElseThrow())
                    .isBetween(Duration.ofHours(3).minusSeconds(10), Duration.ofHours(3));
        });
        assertThat(logs).as("not an error").noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
    }

    @Test
    void aSetHoldKeepsTheRunLockUntilItEndsThenTheClaimStillSkips() throws Exception {
        long fired = System.nanoTime();
        heldA.run();
        sleepUntil(fired, 1_000);
        heldB.run();
        assertThat(SKIPS).singleElement().satisfies(skip -> {
            assertThat(skip.reason()).as("the run lock, in its hold").isEqualTo(ScheduleSkipped.Reason.HELD_ELSEWHERE);
            assertThat(skip.remainingLease().orElseThrow()).isBetween(Duration.ofMillis(1), Duration.ofMillis(1_100));
        });
        sleepUntil(fired, 2_150);
        assertThat(runLockFree(HeldJob.class)).as("past the hold").isTrue();
        heldB.run();
        assertThat(RUNS).as("the same planned time, past the hold: claimed").hasValue(1);
        assertThat(SKIPS)
                .last()
                .extracting(ScheduleSkipped::reason)
                .isEqualTo(ScheduleSkipped.Reason.PLANNED_TIME_CLAIMED);
    }

    @Test
    void aFailingRunThrowsAndItsPlannedTimeStaysClaimed() throws Exception {
        failure = new IllegalStateException("job failed");
        assertThatThrownBy(a::run).isSameAs(failure);
        failure = null;
        b.run();
        assertThat(RUNS).as("the failed run holds its planned time").hasValue(1);
        assertThat(SKIPS)
                .singleElement()
                .extracting(ScheduleSkipped::reason)
                .isEqualTo(ScheduleSkipped.Reason.PLANNED_TIME_CLAIMED);
        assertThat(runLockFree()).isTrue();
    }

    @Test
    void aRunLongerThanTheTtlKeepsItsRunLockAndReleasesItAtItsEnd() throws Exception {
        running = new CountDownLatch(1);
        finish = new CountDownLatch(1);
        CompletableFuture<Void> longRun = CompletableFuture.runAsync(() -> {
            try {
                a.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        running = null;
        long started = System.nanoTime();
        // 1.5 s: longer than the ttl (300 ms); the run lock is renewed all along.
        while (System.nanoTime() - started < TimeUnit.MILLISECONDS.toNanos(1_500)) {
            b.run();
            Thread.sleep(100);
        }
        assertThat(RUNS).as("never a second run while the first runs").hasValue(1);
        assertThat(SKIPS)
                .isNotEmpty()
                .allSatisfy(skip -> assertThat(skip.reason())
                        .as("a run in progress")
                        .isEqualTo(ScheduleSkipped.Reason.HELD_ELSEWHERE));
        finish.countDown();
        longRun.get(5, TimeUnit.SECONDS);
        assertThat(runLockFree()).as("released when the run ended").isTrue();
        b.run();
        assertThat(RUNS).as("the same planned time: claimed").hasValue(1);
    }

    @Test
    void aFailingStoreSkipsTheFiringAndLogsAnErrorWithTheKey() throws Exception {
        SHARED.down = true;
        a.run();
        assertThat(RUNS).as("never run unguarded").hasValue(0);
        String key = KEY;
        assertThat(SKIPS).singleElement().satisfies(skip -> {
            assertThat(skip.reason()).isEqualTo(ScheduleSkipped.Reason.STORE_FAILED);
            assertThat(skip.failure()).isPresent();
            assertThat(skip.key()).isEqualTo(key);
        });
        assertThat(logs).anySatisfy(r -> {
            assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
            assertThat(r.getMessage()).contains("BATON-042").contains(key);
        });
        SHARED.down = false;
        a.run();
        assertThat(RUNS).as("runs again once the store is back").hasValue(1);
    }

    static final String KEY = "schedule:" + Job.class.getName() + ".run";

    private static boolean runLockFree() {
        return runLockFree(Job.class);
    }

    private static boolean runLockFree(Class<?> job) {
        String key = "schedule:" + job.getName() + ".run";
        boolean free = SHARED.acquire(Acquisition.of(key, "probe", 60_000)).isAcquired();
        if (free) {
            SHARED.release(key, "probe");
        }
        return free;
    }

    /** Waits out the last 10 s of an hour (UTC): a test's firings then fall in one hour. */
    private static void awayFromTheEdgeOfAnHour() throws InterruptedException {
        long intoHour = System.currentTimeMillis() % 3_600_000;
        if (intoHour > 3_590_000) {
            Thread.sleep(3_600_000 - intoHour + 100);
        }
    }

    private static void sleepUntil(long startNanos, long millis) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(Math.max(0, startNanos + TimeUnit.MILLISECONDS.toNanos(millis) - System.nanoTime()));
    }
}
