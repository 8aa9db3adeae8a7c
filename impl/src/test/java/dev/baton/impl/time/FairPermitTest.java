package dev.baton.impl.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The key gate's permit: one holder at a time, handed over in arrival order, given back by any thread. */
class FairPermitTest {

    private static final class Permit extends FairPermit {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void oneHolderAtATimeUnderContention() throws Exception {
        Permit permit = new Permit();
        int threads = 4;
        int rounds = 20_000;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger taken = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            boolean barging = t % 2 == 0;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        boolean got = barging ? permit.tryTake() : permit.tryTake(10, TimeUnit.SECONDS);
                        if (!got) {
                            continue;
                        }
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        taken.incrementAndGet();
                        inside.decrementAndGet();
                        permit.give();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join(60_000);
            assertThat(worker.isAlive()).isFalse();
        }
        assertThat(overlaps).hasValue(0);
        assertThat(taken.get()).as("the waiting threads all got it every round").isGreaterThanOrEqualTo(2 * rounds);
        assertThat(permit.isFree()).isTrue();
    }

    @Test
    void waitersTakeItInArrivalOrder() throws Exception {
        Permit permit = new Permit();
        assertThat(permit.tryTake()).isTrue();
        List<Integer> order = new ArrayList<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            Thread waiter = new Thread(() -> {
                try {
                    assertThat(permit.tryTake(30, TimeUnit.SECONDS)).isTrue();
                    synchronized (order) {
                        order.add(n);
                    }
                    permit.give();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            waiter.start();
            waiters.add(waiter);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (permit.getQueueLength() != i + 1) { // queued before the next one starts
                assertThat(System.nanoTime() - deadline).isNegative();
                Thread.onSpinWait();
            }
        }
        assertThat(permit.tryTake(0)).as("a timed take waits behind the queue").isFalse();
        permit.give();
        for (Thread waiter : waiters) {
            waiter.join(30_000);
        }
        assertThat(order).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void anotherThreadGivesItBackAndTwoGivesLeaveOnePermit() throws Exception {
        Permit permit = new Permit();
        assertThat(permit.tryTake()).isTrue();
        Thread giver = new Thread(permit::give);
        giver.start();
        giver.join();
        permit.give();
        assertThat(permit.tryTake()).isTrue();
        assertThat(permit.tryTake()).as("never two permits").isFalse();
        assertThat(permit.tryTake(20, TimeUnit.MILLISECONDS)).isFalse();
    }

    @Test
    void aWaitEndsWhenInterrupted() throws Exception {
        Permit permit = new Permit();
        assertThat(permit.tryTake()).isTrue();
        CountDownLatch interrupted = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            assertThatThrownBy(() -> permit.tryTake(30, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
            interrupted.countDown();
        });
        waiter.start();
        while (permit.getQueueLength() == 0) {
            Thread.onSpinWait();
        }
        waiter.interrupt();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        permit.give();
        assertThat(permit.tryTake()).isTrue();
    }
}
