package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Exclusive;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.TestConfig;
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
 * The hold rule across two application instances (two Weld runtimes) on one store, with the dangerous
 * interleavings forced: a firing 1 s late for the same planned time, a failing run, a run held by a latch
 * longer than the hold and than the ttl, and a failing store.
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

    /** Every 4 s: the default hold is 2 s. */
    @ApplicationScoped
    public static class Job {
        @Exclusive(period = "4s")
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

    @BeforeEach
    void start() {
        // A short ttl, renewed every 100 ms: a run of 1 s outlasts it many times.
        SHARED = new FaultyStore();
        TestConfig.install("baton.ttl=300ms");
        first = Deployments.weld(SharedStore.class, Job.class, Skips.class).initialize();
        second = Deployments.weld(SharedStore.class, Job.class, Skips.class).initialize();
        a = first.select(Job.class).get();
        b = second.select(Job.class).get();
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
    void aFiringOneSecondLateForTheSamePlannedTimeSkipsAndTheLockExpiresAtTheHold() throws Exception {
        long fired = System.nanoTime();
        a.run();
        assertThat(RUNS).hasValue(1);
        sleepUntil(fired, 1_000);
        b.run();
        assertThat(RUNS).as("1 s late: still held (hold 2 s)").hasValue(1);
        assertThat(SKIPS).singleElement().satisfies(skip -> {
            assertThat(skip.reason()).isEqualTo(ScheduleSkipped.Reason.HELD_ELSEWHERE);
            assertThat(skip.remainingLease().orElseThrow()).isBetween(Duration.ofMillis(1), Duration.ofMillis(1_100));
        });
        assertThat(logs).as("not an error").noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
        sleepUntil(fired, 1_900);
        b.run();
        assertThat(RUNS).as("1.9 s after the firing: still held").hasValue(1);
        sleepUntil(fired, 2_150);
        b.run();
        assertThat(RUNS)
                .as("past the hold, before the next planned time: free again")
                .hasValue(2);
    }

    @Test
    void aFailingRunThrowsAndStillHoldsUntilTheHold() throws Exception {
        failure = new IllegalStateException("job failed");
        long fired = System.nanoTime();
        assertThatThrownBy(a::run).isSameAs(failure);
        failure = null;
        sleepUntil(fired, 1_000);
        b.run();
        assertThat(RUNS).as("the failed run holds its planned time").hasValue(1);
        sleepUntil(fired, 2_150);
        b.run();
        assertThat(RUNS).hasValue(2);
    }

    @Test
    void aRunLongerThanTheHoldAndTheTtlKeepsItsLockAndReleasesItAtItsEnd() throws Exception {
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
        // 2.5 s: longer than the hold (2 s) and than the ttl (300 ms); the lock is renewed all along.
        while (System.nanoTime() - started < TimeUnit.MILLISECONDS.toNanos(2_500)) {
            b.run();
            Thread.sleep(100);
        }
        assertThat(RUNS).as("never a second run while the first runs").hasValue(1);
        finish.countDown();
        longRun.get(5, TimeUnit.SECONDS);
        b.run();
        assertThat(RUNS)
                .as("released when the run ended, the hold having passed")
                .hasValue(2);
    }

    @Test
    void aFailingStoreSkipsTheFiringAndLogsAnErrorWithTheKey() throws Exception {
        SHARED.down = true;
        a.run();
        assertThat(RUNS).as("never run unguarded").hasValue(0);
        String key = "schedule:" + Job.class.getName() + ".run";
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

    private static void sleepUntil(long startNanos, long millis) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(Math.max(0, startNanos + TimeUnit.MILLISECONDS.toNanos(millis) - System.nanoTime()));
    }
}
