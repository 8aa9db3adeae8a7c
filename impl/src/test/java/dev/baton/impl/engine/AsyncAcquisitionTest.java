package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.ExclusionDetector;
import dev.baton.spi.Acquisition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Acquisitions that wait without a thread: hundreds of them wait on one key with a handful of threads, each is
 * granted in turn and released from another thread, a cancelled one gives its wait (and a lock granted at that
 * moment) back, a timed-out one fails with the timeout, and the engine's shutdown ends them.
 */
class AsyncAcquisitionTest {

    private static final long TTL = 30_000;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private static CompletableFuture<HeldLock> ask(LockEngine engine, String key, long timeoutMillis, int limit) {
        return engine.acquireAsync(
                key, TTL, timeoutMillis, true, engine.settings().poll(), limit);
    }

    @Test
    void manyWaitersTakeTheKeyOneAfterAnotherWithoutAThreadEach() throws Exception {
        // Four threads for every store call: 300 waiters that each held a thread while waiting would never finish.
        ExecutorService fourThreads = Executors.newFixedThreadPool(4);
        engines.storeCalls(fourThreads);
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, 60_000);
        int waiters = 300;
        ExclusionDetector detector = new ExclusionDetector();
        List<CompletableFuture<Void>> done = new ArrayList<>();
        try {
            for (int i = 0; i < waiters; i++) {
                done.add(ask(engine, "queue", 60_000, Acquisition.EXCLUSIVE).thenAcceptAsync(lock -> {
                    detector.enter();
                    detector.exit();
                    lock.close(); // released by a thread that did not ask for it
                }));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } finally {
            fourThreads.shutdown();
        }
        assertThat(detector.entries()).isEqualTo(waiters);
        assertThat(detector.maxInside()).isEqualTo(1);
        assertThat(engine.heldCount()).isZero();
        assertThat(engine.gateUsers("queue")).isZero();
    }

    @Test
    void anAsynchronousLockIsBoundToNoThreadAndExcludesSynchronousOnes() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, 60_000);
        HeldLock async = ask(engine, "k", 1_000, Acquisition.EXCLUSIVE).get(10, TimeUnit.SECONDS);
        // Not held by this thread: asking synchronously waits (and times out) instead of failing as re-entry.
        assertThat(engine.acquireOrNull("k", TTL, 100, true)).isNull();
        CompletableFuture<HeldLock> second = ask(engine, "k", 10_000, Acquisition.EXCLUSIVE);
        Thread.sleep(100);
        assertThat(second).isNotDone();
        Thread releaser = new Thread(async::close);
        releaser.start();
        releaser.join();
        HeldLock next = second.get(10, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(async.fencingToken());
        next.close();
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aTimedOutWaitFailsWithTheTimeoutAndLeavesNothingBehind() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, 60_000);
        try (HeldLock holder = engine.acquire("busy", TTL, 1_000, true)) {
            CompletableFuture<HeldLock> waiting = ask(engine, "busy", 200, Acquisition.EXCLUSIVE);
            assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(LockTimeoutException.class);
        }
        awaitGateUsers(engine, "busy", 0);
    }

    @Test
    void cancellingGivesTheWaitUpAndALockGrantedMeanwhileBack() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, 60_000);
        for (int round = 0; round < 300; round++) {
            HeldLock holder = engine.acquire("c", TTL, 1_000, true);
            CompletableFuture<HeldLock> waiting = ask(engine, "c", 10_000, Acquisition.EXCLUSIVE);
            // The release and the cancel race: either way nothing stays held and the key is free afterwards.
            Thread releaser = new Thread(holder::close);
            releaser.start();
            if (round % 2 == 0) {
                Thread.onSpinWait();
            }
            if (!waiting.cancel(false)) {
                waiting.join().close(); // granted before the cancel: the caller has it, and releases it
            }
            releaser.join();
            awaitGateUsers(engine, "c", 0);
            assertThat(engine.heldCount()).as("round %d", round).isZero();
        }
        try (HeldLock again = engine.acquire("c", TTL, 1_000, true)) {
            assertThat(again.isHeld()).isTrue();
        }
    }

    @Test
    void sharedAsynchronousRequestsHoldTogether() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, 60_000);
        List<HeldLock> readers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            readers.add(ask(engine, "r", 1_000, Acquisition.UNLIMITED).get(10, TimeUnit.SECONDS));
        }
        CompletableFuture<HeldLock> writer = ask(engine, "r", 10_000, Acquisition.EXCLUSIVE);
        Thread.sleep(100);
        assertThat(writer).isNotDone();
        readers.forEach(HeldLock::close);
        writer.get(10, TimeUnit.SECONDS).close();
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void theShutdownEndsWaitingAcquisitions() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, 60_000);
        CompletableFuture<HeldLock> holder = ask(engine, "s", 1_000, Acquisition.EXCLUSIVE);
        holder.get(10, TimeUnit.SECONDS);
        CompletableFuture<HeldLock> waiting = ask(engine, "s", 60_000, Acquisition.EXCLUSIVE);
        Thread closer = new Thread(() -> engine.close(java.time.Duration.ofMillis(200)));
        closer.start();
        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(LockException.class)
                .hasMessageContaining("shut down");
        holder.join().close();
        closer.join(10_000);
        assertThatThrownBy(() -> ask(engine, "s", 1_000, Acquisition.EXCLUSIVE)).isInstanceOf(LockException.class);
    }

    private static void awaitGateUsers(LockEngine engine, String key, int users) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (engine.gateUsers(key) != users && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(engine.gateUsers(key)).isEqualTo(users);
    }
}
