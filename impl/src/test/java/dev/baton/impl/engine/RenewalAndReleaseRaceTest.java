package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.store.file.FileLockStore;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A renewal and a release of one lock racing each other, on real time and real stores (the memory store and
 * the file store), the renewal held at the store's door until the test lets it in, round after round:
 * <ul>
 * <li>a renewal in flight when the lock is released must not extend the released lease, leaving an orphan
 * lease that keeps the key from everybody (Redisson #7272);</li>
 * <li>a release after the lease ended, when the next holder has the key, must not free the next holder's lock
 * and must report that the lock was not held (Spring Integration #9291).</li>
 * </ul>
 * Both held when these tests were written (a store's renewal and release name the owner, and an owner is one
 * acquisition's): they stay as guards.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RenewalAndReleaseRaceTest {

    private static final int ROUNDS = 15;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    static Stream<Arguments> stores() {
        Supplier<LockStore> memory = MemoryLockStore::new;
        Supplier<LockStore> file = () -> {
            try {
                return new FileLockStore(Files.createDirectories(Path.of(
                        "target", "renewal-release-race", UUID.randomUUID().toString())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        return Stream.of(Arguments.of("memory", memory), Arguments.of("file", file));
    }

    @ParameterizedTest(name = "{0} store")
    @MethodSource("stores")
    void aRenewalInFlightAtTheReleaseDoesNotKeepAnOrphanLeaseAlive(String name, Supplier<LockStore> stores)
            throws Exception {
        GatedRenewals store = new GatedRenewals(stores.get());
        LockEngine engine = engines.engine(store).ttl(600).build(); // renewed every 200 ms
        for (int round = 0; round < ROUNDS; round++) {
            GatedRenewals.Gate gate = store.holdNextRenewal();
            HeldLock lock = engine.acquire("orphan-" + round, 600, 1_000, true);
            assertThat(gate.arrived.await(10, TimeUnit.SECONDS))
                    .as("round %d: a renewal reached the store's door", round)
                    .isTrue();

            assertThat(lock.release()).as("round %d: the release", round).isTrue();
            gate.open.countDown(); // the renewal reaches the store after the release
            assertThat(gate.answered.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(gate.renewed)
                    .as("round %d: what the renewal that came after the release renewed", round)
                    .containsOnly(false);
            String next = UUID.randomUUID().toString();
            AcquireResult taken = store.delegate.acquire(Acquisition.of(lock.storeKey(), next, 60_000));
            assertThat(taken.isAcquired())
                    .as(
                            "round %d: the key right after the renewal, by another owner (remaining lease %s)",
                            round, taken.remainingLeaseMillis())
                    .isTrue();
            assertThat(store.delegate.release(lock.storeKey(), next)).isTrue();
        }
    }

    @ParameterizedTest(name = "{0} store")
    @MethodSource("stores")
    void aReleaseAfterTheLeaseEndedDoesNotFreeTheNextHoldersLockAndReportsTheLoss(
            String name, Supplier<LockStore> stores) throws Exception {
        GatedRenewals store = new GatedRenewals(stores.get());
        LockEngine engine = engines.engine(store).ttl(300).build(); // renewed every 100 ms
        for (int round = 0; round < ROUNDS; round++) {
            GatedRenewals.Gate gate = store.holdNextRenewal();
            HeldLock late = engine.acquire("late-" + round, 300, 1_000, true);
            assertThat(gate.arrived.await(10, TimeUnit.SECONDS)).isTrue(); // its renewal hangs: the lease runs out
            String next = UUID.randomUUID().toString();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!store.delegate
                    .acquire(Acquisition.of(late.storeKey(), next, 60_000))
                    .isAcquired()) {
                assertThat(System.nanoTime())
                        .as("round %d: the next holder took the key", round)
                        .isLessThan(deadline);
                Thread.sleep(5);
            }

            assertThat(late.release())
                    .as("round %d: the release of the holder whose lease ended", round)
                    .isFalse();
            gate.open.countDown();
            assertThat(gate.answered.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(gate.renewed)
                    .as("round %d: what the late holder's renewal renewed", round)
                    .containsOnly(false);
            assertThat(store.delegate.renew(Renewal.of(late.storeKey(), next, 60_000)))
                    .as("round %d: the next holder still holds the key", round)
                    .isTrue();
            assertThat(store.delegate
                            .acquire(Acquisition.of(
                                    late.storeKey(), UUID.randomUUID().toString(), 60_000))
                            .isAcquired())
                    .as("round %d: a third owner", round)
                    .isFalse();
            assertThat(late.isHeld()).isFalse();
            assertThat(store.delegate.release(late.storeKey(), next)).isTrue();
        }
    }

    /** A real store whose next renewal, once armed, waits at the door until the test opens it. */
    static final class GatedRenewals extends ForwardingLockStore {

        /** One held renewal: it arrived, the test opened the door, it answered (what it renewed). */
        static final class Gate {
            final CountDownLatch arrived = new CountDownLatch(1);
            final CountDownLatch open = new CountDownLatch(1);
            final CountDownLatch answered = new CountDownLatch(1);
            final List<Boolean> renewed = new CopyOnWriteArrayList<>();
            final AtomicBoolean armed = new AtomicBoolean(true);
        }

        final LockStore delegate;
        private volatile Gate gate;

        GatedRenewals(LockStore delegate) {
            super(delegate);
            this.delegate = delegate;
        }

        Gate holdNextRenewal() {
            Gate next = new Gate();
            gate = next;
            return next;
        }

        /** Runs {@code renewal}, held at the door if the gate is armed; reports each lease's answer. */
        private <T> T atTheDoor(Supplier<T> renewal, Function<T, List<Boolean>> answers) {
            Gate current = gate;
            if (current == null || !current.armed.compareAndSet(true, false)) {
                return renewal.get();
            }
            current.arrived.countDown();
            try {
                if (!current.open.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the test never opened the door");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted at the door", e);
            }
            T result = renewal.get();
            current.renewed.addAll(answers.apply(result));
            current.answered.countDown();
            return result;
        }

        @Override
        public boolean renew(Renewal renewal) {
            return atTheDoor(() -> delegate.renew(renewal), List::of);
        }

        @Override
        public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
            return atTheDoor(() -> delegate.renewAll(leases, ttlMillis, maxWaitMillis), r -> renewedOf(leases, r));
        }

        private static List<Boolean> renewedOf(Collection<Lease> leases, Set<Lease> renewed) {
            return leases.stream().map(renewed::contains).toList();
        }
    }
}
