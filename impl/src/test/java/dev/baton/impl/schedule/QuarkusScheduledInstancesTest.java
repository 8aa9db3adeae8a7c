package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Exclusive;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.LockStore;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two application instances (two Weld containers on one store) whose Quarkus-style schedules fire at different
 * offsets, as Quarkus's {@code every} does in processes started at different moments: the method has a bare
 * {@code @Exclusive} and {@code @Scheduled(every = "1500ms")}, and each period aligned on the epoch runs once, in
 * whichever instance fired first in it; the other skips that planned time ({@code PLANNED_TIME_CLAIMED}). The
 * instance that fires first alternates, so a claim that outlived its planned time would show as a missing run. A
 * round whose second firing returned only after its period ended is not counted (it may have begun in the next
 * period, and rightly run it): six counted rounds are needed, of at most eighteen.
 */
class QuarkusScheduledInstancesTest {

    static final long PERIOD_MILLIS = 1_500;
    static final int PLANNED_TIMES = 6;

    static final MemoryLockStore SHARED = new MemoryLockStore();
    static final Map<Long, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final Queue<ScheduleSkipped> SKIPS = new ConcurrentLinkedQueue<>();
    /** The period the firing thread fires in, by the test's own count. */
    static final ThreadLocal<Long> PERIOD = new ThreadLocal<>();

    public static class SharedStore {
        @Produces
        @Singleton
        LockStore store() {
            return SHARED;
        }
    }

    @ApplicationScoped
    public static class Sweeper {
        @Exclusive
        @Scheduled(every = "1500ms")
        public void sweep() {
            RUNS.computeIfAbsent(PERIOD.get(), k -> new AtomicInteger()).incrementAndGet();
        }
    }

    @ApplicationScoped
    public static class Skips {
        void skipped(@Observes ScheduleSkipped event) {
            SKIPS.add(event);
        }
    }

    private WeldContainer first;
    private WeldContainer second;
    /** Each instance's scheduler thread: an instance's owner is its own, as in two processes. */
    private final List<ExecutorService> schedulers =
            List.of(Executors.newSingleThreadExecutor(), Executors.newSingleThreadExecutor());

    @BeforeEach
    void start() {
        TestConfig.install();
        first = Deployments.weld(SharedStore.class, Sweeper.class, Skips.class).initialize();
        second = Deployments.weld(SharedStore.class, Sweeper.class, Skips.class).initialize();
    }

    @AfterEach
    void stop() {
        schedulers.forEach(ExecutorService::shutdownNow);
        first.close();
        second.close();
        TestConfig.uninstall();
    }

    @Test
    void eachPeriodRunsOnceWhicheverInstanceFiresFirstInIt() throws Exception {
        List<Sweeper> instances = List.of(
                first.select(Sweeper.class).get(), second.select(Sweeper.class).get());
        int conclusive = 0;
        for (int round = 0; conclusive < PLANNED_TIMES && round < 3 * PLANNED_TIMES; round++) {
            // 100 ms into the next period, then 800 ms into it: both firings fall in one period
            long now = System.currentTimeMillis();
            long period = now / PERIOD_MILLIS + 1;
            Thread.sleep(Math.max(0, period * PERIOD_MILLIS + 100 - now));
            fire(instances, round % 2, period);
            Thread.sleep(Math.max(0, period * PERIOD_MILLIS + 800 - System.currentTimeMillis()));
            fire(instances, (round + 1) % 2, period); // a skip returns normally
            if (System.currentTimeMillis() / PERIOD_MILLIS != period) {
                // a firing that returned after the period ended may have begun in the next one, which it may run:
                // this machine was too slow for the round to tell anything; it is not counted
                RUNS.remove(period);
                continue;
            }
            assertThat(RUNS.get(period))
                    .as("runs in period %d (round %d)", period, round)
                    .hasValue(1);
            conclusive++;
        }
        assertThat(conclusive)
                .as("rounds whose firings both fell in their period")
                .isEqualTo(PLANNED_TIMES);
        assertThat(SKIPS).hasSizeGreaterThanOrEqualTo(PLANNED_TIMES).allSatisfy(skip -> {
            assertThat(skip.reason()).isEqualTo(ScheduleSkipped.Reason.PLANNED_TIME_CLAIMED);
            assertThat(skip.key()).isEqualTo("schedule:" + Sweeper.class.getName() + ".sweep");
        });
    }

    private void fire(List<Sweeper> instances, int instance, long period) throws Exception {
        schedulers
                .get(instance)
                .submit(() -> {
                    PERIOD.set(period);
                    instances.get(instance).sweep();
                    return null;
                })
                .get(10, TimeUnit.SECONDS);
    }
}
