package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockAlreadyHeldException;
import dev.baton.impl.store.file.FileLockStore;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.ExclusionDetector;
import dev.baton.spi.Acquisition;
import dev.baton.tck.Together;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared leases through the engine, with real threads and many rounds: permits never let more than N in, readers
 * share a key and a writer has it alone, a waiting writer is not starved by readers, and a read lock is not
 * upgraded.
 */
class SharedLocksTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 200;
    private static final long TTL = 30_000;
    private static final long TIMEOUT = 60_000;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private HeldLock take(LockEngine engine, String key, int sharedLimit) {
        return engine.acquire(key, TTL, TIMEOUT, true, engine.settings().poll(), sharedLimit);
    }

    @Test
    void permitsNeverLetMoreThanTheirNumberIn() throws Exception {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine[] instances = {engines.engine(store, TTL, TIMEOUT), engines.engine(store, TTL, TIMEOUT)};
        ExclusionDetector detector = new ExclusionDetector();
        ConcurrentHashMap<Long, Boolean> tokens = new ConcurrentHashMap<>();
        Together.run(THREADS, t -> {
            for (int i = 0; i < ROUNDS; i++) {
                try (HeldLock lock = take(instances[t % 2], "export", 3)) {
                    detector.enter();
                    assertThat(tokens.put(lock.fencingToken(), true))
                            .as("token reused")
                            .isNull();
                    Thread.onSpinWait();
                    detector.exit();
                }
            }
        });
        assertThat(detector.entries()).isEqualTo(THREADS * ROUNDS);
        assertThat(detector.maxInside()).isBetween(2, 3); // shared: more than one, never more than three
        assertThat(instances[0].heldCount() + instances[1].heldCount()).isZero();
    }

    @Test
    void readersShareAKeyAndAWriterHasItAlone() throws Exception {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine[] instances = {engines.engine(store, TTL, TIMEOUT), engines.engine(store, TTL, TIMEOUT)};
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger mostReaders = new AtomicInteger();
        AtomicBoolean overlap = new AtomicBoolean();
        Together.run(THREADS, t -> {
            LockEngine engine = instances[t % 2];
            for (int i = 0; i < ROUNDS; i++) {
                boolean write = (i + t) % 4 == 0;
                try (HeldLock lock = take(engine, "catalog", write ? Acquisition.EXCLUSIVE : Acquisition.UNLIMITED)) {
                    if (write) {
                        if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                            overlap.set(true);
                        }
                        Thread.yield();
                        writers.decrementAndGet();
                    } else {
                        int now = readers.incrementAndGet();
                        mostReaders.accumulateAndGet(now, Math::max);
                        if (writers.get() != 0) {
                            overlap.set(true);
                        }
                        Thread.yield();
                        readers.decrementAndGet();
                    }
                }
            }
        });
        assertThat(overlap).as("a writer beside another holder").isFalse();
        assertThat(mostReaders.get()).as("readers held the key together").isGreaterThan(1);
    }

    @Test
    void aWaitingWriterIsNotStarvedByAStreamOfReaders() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, TIMEOUT);
        AtomicBoolean writerDone = new AtomicBoolean();
        AtomicInteger readsAfterWriterAsked = new AtomicInteger();
        AtomicBoolean writerAsked = new AtomicBoolean();
        CountDownLatch readersStarted = new CountDownLatch(4);
        Thread[] readers = new Thread[4];
        for (int r = 0; r < readers.length; r++) {
            readers[r] = new Thread(() -> {
                readersStarted.countDown();
                // Overlapping readers: there is always one holding the key, so without turns a writer never gets in.
                while (!writerDone.get()) {
                    try (HeldLock lock = take(engine, "stream", Acquisition.UNLIMITED)) {
                        if (writerAsked.get()) {
                            readsAfterWriterAsked.incrementAndGet();
                        }
                        sleep(5);
                    }
                }
            });
            readers[r].start();
        }
        readersStarted.await();
        sleep(50);
        long asked = System.nanoTime();
        writerAsked.set(true);
        try (HeldLock writer =
                engine.acquire("stream", TTL, 10_000, true, engine.settings().poll(), 0)) {
            assertThat(writer.isHeld()).isTrue();
        } finally {
            writerDone.set(true);
        }
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
        for (Thread reader : readers) {
            reader.join(10_000);
        }
        // The writer took the key's turn: readers already in finished, new ones waited behind it.
        assertThat(waitedMillis).isLessThan(5_000);
    }

    @Test
    void aReadLockIsNotUpgradedAndLocksAreNotReentrantInEitherMode() {
        LockEngine engine = engines.engine(new MemoryLockStore(), TTL, TIMEOUT);
        try (HeldLock read = take(engine, "doc", Acquisition.UNLIMITED)) {
            assertThatThrownBy(() -> take(engine, "doc", Acquisition.EXCLUSIVE))
                    .isInstanceOf(LockAlreadyHeldException.class)
                    .hasMessageContaining("shared lock")
                    .hasMessageContaining("not upgraded");
            assertThatThrownBy(() -> take(engine, "doc", Acquisition.UNLIMITED))
                    .isInstanceOf(LockAlreadyHeldException.class);
        }
        try (HeldLock write = take(engine, "doc", Acquisition.EXCLUSIVE)) {
            assertThatThrownBy(() -> take(engine, "doc", Acquisition.UNLIMITED))
                    .isInstanceOf(LockAlreadyHeldException.class);
        }
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aStoreWithoutSharedLeasesRefusesSharedRequestsNamingItself(@TempDir Path dir) {
        LockEngine engine = engines.engine(new FileLockStore(dir), TTL, TIMEOUT);
        assertThatThrownBy(() -> take(engine, "k", 3))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("'k'")
                .hasMessageContaining("SHARED_LOCKS");
        assertThatThrownBy(() -> engine.acquireAsync(
                        "k", TTL, TIMEOUT, true, engine.settings().poll(), 3))
                .isInstanceOf(UnsupportedOperationException.class);
        try (HeldLock exclusive = take(engine, "k", Acquisition.EXCLUSIVE)) {
            assertThat(exclusive.isHeld()).isTrue();
        }
    }

    @Test
    void heldSharedLeasesAreListedRenewedAndReleasedOneByOne() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore(), 600, TIMEOUT);
        CountDownLatch allIn = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] holders = new Thread[3];
        for (int i = 0; i < holders.length; i++) {
            holders[i] = new Thread(() -> {
                try (HeldLock lock = engine.acquire(
                        "p", 600, TIMEOUT, true, engine.settings().poll(), 3)) {
                    allIn.countDown();
                    release.await();
                    assertThat(lock.isHeld()).as("renewed past its ttl").isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            holders[i].start();
        }
        assertThat(allIn.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(engine.heldCount()).isEqualTo(3);
        sleep(1_500); // past two ttls: the renewals keep all three
        assertThat(engine.acquireOrNull("p", 600, 0, false, 3))
                .as("a fourth permit")
                .isNull();
        release.countDown();
        for (Thread holder : holders) {
            holder.join(10_000);
        }
        assertThat(engine.heldCount()).isZero();
        assertThat(engine.gateUsers("p")).isZero();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
