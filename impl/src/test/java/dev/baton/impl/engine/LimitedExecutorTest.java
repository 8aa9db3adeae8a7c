package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The bound on one engine's renewal threads, with real threads submitting and running at once. */
class LimitedExecutorTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @RepeatedTest(20)
    void neverRunsMoreThanItsLimitAndRunsEveryTask() throws Exception {
        LimitedExecutor limited = new LimitedExecutor(pool, 3);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        int submitters = 4;
        int tasksEach = 2_000;
        CountDownLatch done = new CountDownLatch(submitters * tasksEach);
        CountDownLatch start = new CountDownLatch(1);
        Thread[] threads = new Thread[submitters];
        for (int t = 0; t < submitters; t++) {
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < tasksEach; i++) {
                    limited.execute(() -> {
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        long until = System.nanoTime() + 20_000; // long enough for tasks to overlap
                        while (System.nanoTime() - until < 0) {
                            Thread.onSpinWait();
                        }
                        running.decrementAndGet();
                        done.countDown();
                    });
                }
            });
            threads[t].start();
        }
        start.countDown();
        assertThat(done.await(30, TimeUnit.SECONDS))
                .as("every task ran; %d left", done.getCount())
                .isTrue();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(most.get()).as("most tasks running at once").isBetween(1, 3);
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (limited.running() > 0 && System.nanoTime() - giveUp < 0) {
            Thread.onSpinWait(); // the last tasks count down just before they give their place back
        }
        assertThat(limited.running()).isZero();
        assertThat(limited.waiting()).isZero();
    }

    @Test
    void aTaskBeyondTheLimitWaitsForOneToEnd() throws Exception {
        LimitedExecutor limited = new LimitedExecutor(pool, 1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondRan = new CountDownLatch(1);
        limited.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        limited.execute(secondRan::countDown);
        assertThat(secondRan.await(200, TimeUnit.MILLISECONDS))
                .as("ran while the first held the only place")
                .isFalse();
        assertThat(limited.waiting()).isOne();
        release.countDown();
        assertThat(secondRan.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aShutDownExecutorUnderneathIsReportedToTheSubmitter() {
        pool.shutdown();
        LimitedExecutor limited = new LimitedExecutor(pool, 2);
        assertThatThrownBy(() -> limited.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
        assertThat(limited.running()).isZero();
    }

    @Test
    void theLimitIsPositive() {
        assertThatThrownBy(() -> new LimitedExecutor(pool, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be positive, not 0");
    }
}
