package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Waiting turns between lock managers (standing for instances) on one store: a key freed in one
 * instance goes to the waiter that has waited longest, not to the releasing instance's own next thread,
 * which would otherwise always win (it asks the moment the key is free, while a remote waiter sleeps
 * between polls).
 */
class WaitingTurnsTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore store = new MemoryLockStore();

    private LockEngine instance() {
        return engines.engine(store, 30_000, 20_000);
    }

    @Test
    void aKeyFreedInOneInstanceGoesToTheRemoteWaiterThatWaitedLongerNotToALocalThread() throws Exception {
        LockEngine a = instance();
        LockEngine b = instance();
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        HeldLock first = a.acquire("job", 30_000, 10_000, true);

        CompletableFuture<Void> remote = CompletableFuture.runAsync(() -> {
            try (HeldLock lock = b.acquire("job", 30_000, 15_000, true)) {
                order.add("remote");
            }
        });
        // Long enough for the remote waiter to back off to its longest pause between polls.
        Thread.sleep(1_500);
        CountDownLatch localAsked = new CountDownLatch(1);
        CompletableFuture<Void> local = CompletableFuture.runAsync(() -> {
            localAsked.countDown();
            try (HeldLock lock = a.acquire("job", 30_000, 15_000, true)) {
                order.add("local");
            }
        });
        localAsked.await();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> a.gateUsers("job") == 2); // the local thread queues behind the holder
        first.close(); // the local thread gets the gate at once and asks the store straight away

        CompletableFuture.allOf(remote, local).get(30, TimeUnit.SECONDS);
        assertThat(order)
                .as("who got the key after the first holder released it")
                .containsExactly("remote", "local");
    }

    @Test
    void threeInstancesOfTwoThreadsShareAContendedKey() throws Exception {
        int instances = 3;
        int threadsEach = 2;
        long runNanos = TimeUnit.SECONDS.toNanos(4);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong longestWaitNanos = new AtomicLong();
        AtomicInteger[] acquisitions = new AtomicInteger[instances];
        List<Thread> threads = new ArrayList<>();
        long end = System.nanoTime() + runNanos;
        for (int i = 0; i < instances; i++) {
            LockEngine engine = instance();
            AtomicInteger count = acquisitions[i] = new AtomicInteger();
            for (int t = 0; t < threadsEach; t++) {
                threads.add(new Thread(
                        () -> {
                            while (System.nanoTime() < end) {
                                long asked = System.nanoTime();
                                try (HeldLock lock = engine.acquire("hot", 30_000, 20_000, true)) {
                                    longestWaitNanos.accumulateAndGet(System.nanoTime() - asked, Math::max);
                                    if (inside.incrementAndGet() != 1) {
                                        overlaps.incrementAndGet();
                                    }
                                    count.incrementAndGet();
                                    sleepMillis(3);
                                    inside.decrementAndGet();
                                }
                            }
                        },
                        "instance" + i + "-" + t));
            }
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(60_000);
            assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
        }

        int total = 0;
        for (AtomicInteger count : acquisitions) {
            total += count.get();
        }
        assertThat(overlaps.get()).as("two holders at once").isZero();
        for (int i = 0; i < instances; i++) {
            assertThat(acquisitions[i].get())
                    .as("acquisitions of instance %d of %d in all (a fair share is a third)", i, total)
                    .isGreaterThanOrEqualTo(total / 6);
        }
        assertThat(Duration.ofNanos(longestWaitNanos.get()))
                .as("the longest wait for the key")
                .isLessThan(Duration.ofSeconds(3));
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
