package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Exclusive;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three application instances (three Weld containers, three Baton runtimes) on one shared store fire the
 * same planned times at once, from real threads released together by a latch: exactly one run per
 * planned time, for 50 planned times of 400 ms; the others skip, normally, with an event (the run lock held by the
 * run in progress, or the planned time claimed). Each planned time is fired a quarter into its period
 * (periods aligned on the epoch, as the claims name them), the period after the previous one's, so a zero
 * would show a claim or a run lock that blocked the next planned time.
 */
class ExclusiveInstancesTest {

    static final int INSTANCES = 3;
    static final int PLANNED_TIMES = 50;
    static final long PERIOD_MILLIS = 400;

    static final MemoryLockStore SHARED = new MemoryLockStore();
    /** The planned time the firing thread fires for: what a scheduler would know. */
    static final ThreadLocal<Integer> PLANNED = new ThreadLocal<>();

    static final Map<Integer, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final Queue<ScheduleSkipped> SKIPS = new ConcurrentLinkedQueue<>();

    public static class SharedStore {
        @Produces
        @Singleton
        LockStore store() {
            return SHARED;
        }
    }

    @ApplicationScoped
    public static class Job {
        @Exclusive(period = "400ms")
        public void run() {
            RUNS.computeIfAbsent(PLANNED.get(), k -> new AtomicInteger()).incrementAndGet();
        }
    }

    @ApplicationScoped
    public static class Skips {
        void skipped(@Observes ScheduleSkipped event) {
            SKIPS.add(event);
        }
    }

    private final List<WeldContainer> containers = new ArrayList<>();
    private final List<ExecutorService> schedulers = new ArrayList<>();

    @BeforeEach
    void start() {
        TestConfig.install();
        for (int i = 0; i < INSTANCES; i++) {
            containers.add(
                    Deployments.weld(SharedStore.class, Job.class, Skips.class).initialize());
            schedulers.add(Executors.newSingleThreadExecutor());
        }
    }

    @AfterEach
    void stop() {
        schedulers.forEach(ExecutorService::shutdownNow);
        containers.forEach(WeldContainer::close);
        TestConfig.uninstall();
    }

    @Test
    void exactlyOneRunPerPlannedTimeAcrossThreeInstances() throws Exception {
        List<Job> jobs = containers.stream().map(c -> c.select(Job.class).get()).toList();
        for (int planned = 0; planned < PLANNED_TIMES; planned++) {
            // a quarter into the next period by the wall clock (which names the planned time), however late a
            // loaded machine ran the previous firings: three quarters of a period of slack for the threads
            long now = System.currentTimeMillis();
            long at = (now / PERIOD_MILLIS + 1) * PERIOD_MILLIS + PERIOD_MILLIS / 4;
            Thread.sleep(at - now);
            CountDownLatch fire = new CountDownLatch(1);
            List<Future<?>> firings = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                Job job = jobs.get(i);
                int p = planned;
                firings.add(schedulers.get(i).submit(() -> {
                    fire.await();
                    PLANNED.set(p);
                    job.run(); // a skip returns normally
                    return null;
                }));
            }
            fire.countDown();
            for (Future<?> firing : firings) {
                firing.get(10, TimeUnit.SECONDS);
            }
        }
        for (int planned = 0; planned < PLANNED_TIMES; planned++) {
            assertThat(RUNS.get(planned))
                    .as("runs for planned time %d", planned)
                    .isNotNull()
                    .hasValue(1);
        }
        assertThat(SKIPS).hasSize((INSTANCES - 1) * PLANNED_TIMES).allSatisfy(skip -> {
            assertThat(skip.reason())
                    .isIn(ScheduleSkipped.Reason.HELD_ELSEWHERE, ScheduleSkipped.Reason.PLANNED_TIME_CLAIMED);
            assertThat(skip.key()).isEqualTo("schedule:" + Job.class.getName() + ".run");
            assertThat(skip.remainingLease()).isPresent();
        });
    }
}
