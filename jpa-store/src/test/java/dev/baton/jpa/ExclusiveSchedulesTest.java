package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Exclusive;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.StoreConfig;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.persistence.EntityManagerFactory;
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
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exclusive schedules on PostgreSQL: three application instances (three Weld containers, each with its
 * own Baton runtime and its own entity manager factory) on one lock table fire the same planned times at
 * once, released together by a latch, for 60 planned times: exactly one run each. (Here rather than in
 * {@code impl}, which cannot depend on this module.)
 */
class ExclusiveSchedulesTest {

    static final Backend BACKEND = new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE);
    static final String TABLE = BACKEND.tableName("exclusive");
    static final int INSTANCES = 3;
    static final int PLANNED_TIMES = 60;
    static final long PERIOD_MILLIS = 400;

    static final ThreadLocal<Integer> PLANNED = new ThreadLocal<>();
    static final Map<Integer, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final Queue<ScheduleSkipped> SKIPS = new ConcurrentLinkedQueue<>();
    static final EntityManagerFactory[] FACTORIES = new EntityManagerFactory[INSTANCES];

    /** Each instance its own factory: its own connections, as separate processes would have. */
    public static class Factory0 {
        @Produces
        EntityManagerFactory factory() {
            return FACTORIES[0];
        }
    }

    public static class Factory1 {
        @Produces
        EntityManagerFactory factory() {
            return FACTORIES[1];
        }
    }

    public static class Factory2 {
        @Produces
        EntityManagerFactory factory() {
            return FACTORIES[2];
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

    @BeforeAll
    static void configure() {
        StoreConfig.register(TABLE);
        for (int i = 0; i < INSTANCES; i++) {
            FACTORIES[i] = BACKEND.newFactory();
        }
    }

    @AfterAll
    static void unconfigure() {
        for (EntityManagerFactory factory : FACTORIES) {
            if (factory != null) {
                factory.close();
            }
        }
        StoreConfig.release();
    }

    @Test
    void exactlyOneRunPerPlannedTimeAcrossThreeInstancesOnOneDatabase() throws Exception {
        Class<?>[] factories = {Factory0.class, Factory1.class, Factory2.class};
        List<WeldContainer> containers = new ArrayList<>();
        List<ExecutorService> schedulers = new ArrayList<>();
        try {
            for (int i = 0; i < INSTANCES; i++) {
                containers.add(new Weld()
                        .disableDiscovery()
                        .containerId(null)
                        .addExtension(new BatonExtension())
                        .addExtension(new ConfigExtension())
                        .beanClasses(factories[i], Job.class, Skips.class)
                        .initialize());
                schedulers.add(Executors.newSingleThreadExecutor());
            }
            List<Job> jobs =
                    containers.stream().map(c -> c.select(Job.class).get()).toList();
            // Warm up each instance's store (schema, connections) on another key, outside the planned times.
            for (WeldContainer container : containers) {
                container
                        .select(dev.baton.Locks.class)
                        .get()
                        .tryAcquire("warm-up")
                        .ifPresent(dev.baton.Lock::close);
            }
            for (int planned = 0; planned < PLANNED_TIMES; planned++) {
                // A quarter into the next period by the wall clock, which names the planned time (periods are
                // aligned on the epoch, as the claims name them), however late the previous firings ran.
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
                        job.run();
                        return null;
                    }));
                }
                fire.countDown();
                for (Future<?> firing : firings) {
                    firing.get(30, TimeUnit.SECONDS);
                }
            }
        } finally {
            schedulers.forEach(ExecutorService::shutdownNow);
            containers.forEach(WeldContainer::close);
        }
        for (int planned = 0; planned < PLANNED_TIMES; planned++) {
            assertThat(RUNS.get(planned))
                    .as("runs for planned time %d", planned)
                    .isNotNull()
                    .hasValue(1);
        }
        assertThat(SKIPS)
                .hasSize((INSTANCES - 1) * PLANNED_TIMES)
                .allSatisfy(skip -> assertThat(skip.reason())
                        .as("the run lock held by the run in progress, or the planned time claimed")
                        .isIn(ScheduleSkipped.Reason.HELD_ELSEWHERE, ScheduleSkipped.Reason.PLANNED_TIME_CLAIMED));
    }
}
