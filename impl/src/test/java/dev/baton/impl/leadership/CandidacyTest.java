package dev.baton.impl.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Leadership;
import dev.baton.Leadership.Reason;
import dev.baton.LockStoreException;
import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Holder;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every transition of a candidacy, with two "instances" (two engines) on one memory store and virtual time:
 * the stand-bys wait on threads of their own, the test moves time and checks at every step that never both lead.
 */
class CandidacyTest {

    private static final long TTL = 3_000;
    private static final String KEY = Leadership.KEY_PREFIX + "relay";

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();
    private final MemoryLockStore shared = new MemoryLockStore(time::nanoTime);
    private final ExecutorService standbys = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "standby");
        t.setDaemon(true);
        return t;
    });
    private final List<String> journal = new CopyOnWriteArrayList<>();

    private final Partitionable storeA = new Partitionable(shared);
    private final Partitionable storeB = new Partitionable(shared);
    private final LockEngine engineA = engines.engine(storeA).ttl(TTL).build();
    private final LockEngine engineB = engines.engine(storeB).ttl(TTL).build();
    private final Elections electionsA = new Elections(engineA, standbys, new Journal("A"));
    private final Elections electionsB = new Elections(engineB, standbys, new Journal("B"));

    @AfterEach
    void stopStandbys() {
        electionsA.closeAll();
        electionsB.closeAll();
        standbys.shutdownNow();
    }

    @Test
    void theFirstToStandLeadsAndTheOtherStandsBy() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        Leadership b = electionsB.lead("relay");
        time.awaitWaiting(1);
        for (int step = 0; step < 100; step++) {
            advanceChecking(a, b, 100);
        }
        assertThat(a.isLeader()).as("A still leads: its renewals succeed").isTrue();
        assertThat(b.isLeader()).isFalse();
        assertThat(b.token()).isEmpty();
        assertThat(a.token()).hasValue(tokenInStore());
        VirtualTime.awaitReal(() -> !journal.isEmpty(), "the grant told");
        assertThat(journal).containsExactly("A granted " + tokenInStore());
        assertThat(electionsA.lead("relay")).as("one candidacy per name").isSameAs(a);
    }

    @Test
    void aPartitionedLeaderIsRevokedByItsOwnLeaseClockBeforeTheStandbyIsGranted() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        long firstToken = a.token().getAsLong();
        Leadership b = electionsB.lead("relay");
        time.awaitWaiting(1);
        CompletableFuture<Leadership.Revocation> revokedA = a.whenRevoked().toCompletableFuture();
        CompletableFuture<Long> grantedB = b.whenGranted().toCompletableFuture();
        advanceChecking(a, b, 1_500);
        storeA.down = true; // A's renewals fail from now on: the store cannot be reached
        long cutAt = time.millis();
        long aStoppedAt = -1;
        long bStartedAt = -1;
        for (int step = 0; step < 200 && bStartedAt < 0; step++) {
            advanceChecking(a, b, 50);
            if (aStoppedAt < 0 && !a.isLeader()) {
                aStoppedAt = time.millis();
            }
            awaitQuiet(b);
            if (b.isLeader()) {
                bStartedAt = time.millis();
            }
        }
        assertThat(aStoppedAt).as("A stops leading").isPositive();
        // Told before its lease's end (a tenth of the ttl before), so before B could be granted.
        assertThat(journal.indexOf("A revoked LOST " + firstToken))
                .as("A's revocation is told before B's grant: %s", journal)
                .isEqualTo(1);
        assertThat(bStartedAt).as("B takes over").isPositive();
        assertThat(aStoppedAt).as("A stops leading before B starts").isLessThanOrEqualTo(bStartedAt);
        // A's last renewal that came back was sent at 1,000 ms (ttl/3): its lease ends 3,000 ms later, by its own
        // clock.
        assertThat(aStoppedAt - (cutAt - 1_500))
                .as("A stops when its lease ends")
                .isLessThanOrEqualTo(1_000 + TTL);
        assertThat(bStartedAt - aStoppedAt).as("B takes over within one ttl").isLessThanOrEqualTo(TTL);
        Leadership.Revocation revoked = revokedA.join();
        assertThat(revoked.reason()).isEqualTo(Reason.LOST);
        assertThat(revoked.loss()).isPresent();
        assertThat(revoked.token()).isEqualTo(firstToken);
        assertThat(grantedB.join()).as("the new term's token is greater").isGreaterThan(firstToken);
        VirtualTime.awaitReal(() -> journal.size() == 3, "three events");
        assertThat(journal)
                .containsExactly(
                        "A granted " + firstToken, "A revoked LOST " + firstToken, "B granted " + grantedB.join());
    }

    @Test
    void aSteppedDownLeaderIsRevokedBeforeItsLockIsReleasedAndDoesNotStandAgainDuringItsPause() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        Leadership b = electionsB.lead("relay");
        time.awaitWaiting(1);
        long first = a.token().getAsLong();
        holderSeenAtRevocation.clear();
        a.stepDown(Duration.ofSeconds(10));
        assertThat(a.isLeader()).isFalse();
        assertThat(holderSeenAtRevocation)
                .as("the store still held A's lock when A was told")
                .containsExactly(first);
        awaitLeader(b); // A released: B, waiting, is told of the release and takes over at once
        long second = b.token().getAsLong();
        assertThat(second).isGreaterThan(first);
        b.close(); // B leaves: the lock is free, but A pauses
        assertThat(journal).contains("B revoked WITHDRAWN " + second);
        for (int step = 0; step < 95; step++) {
            advanceChecking(a, b, 100);
            awaitQuiet(a);
            assertThat(a.isLeader())
                    .as("A pauses for 10 s after stepping down (at %s ms)", time.millis())
                    .isFalse();
        }
        for (int step = 0; step < 20 && !a.isLeader(); step++) {
            advanceChecking(a, b, 100);
            awaitQuiet(a);
        }
        assertThat(a.isLeader()).as("A stands again after its pause").isTrue();
        assertThat(a.token().getAsLong()).isGreaterThan(second);
    }

    @Test
    void stepDownWithoutOthersLeadsAgainAfterThePause() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        a.stepDown();
        assertThat(a.isLeader()).isFalse();
        time.advanceMillis(TTL - 1);
        awaitQuiet(a);
        assertThat(a.isLeader()).as("the default pause is one ttl").isFalse();
        time.advanceMillis(1);
        awaitLeader(a);
        // the grant is told on a listener thread, after isLeader() turns true
        VirtualTime.awaitReal(() -> journal.size() == 3, "the second grant told");
        assertThat(journal)
                .hasSize(3)
                .element(1, org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("STEPPED_DOWN");
    }

    @Test
    void closingEndsTheTermBeforeTheLockIsReleasedAndStopsStanding() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        long token = a.token().getAsLong();
        CompletableFuture<Leadership.Revocation> revoked = a.whenRevoked().toCompletableFuture();
        a.close();
        assertThat(revoked).isCompletedWithValueMatching(r -> r.reason() == Reason.WITHDRAWN && r.token() == token);
        assertThat(holderSeenAtRevocation).containsExactly(token);
        assertThat(shared.inspect(KEY)).as("released after the revocation").isEmpty();
        assertThat(a.isLeader()).isFalse();
        assertThatThrownBy(() -> a.whenGranted().toCompletableFuture().join())
                .hasCauseInstanceOf(dev.baton.LockException.class)
                .hasMessageContaining("left the election 'relay'");
        time.advanceMillis(10 * TTL);
        assertThat(shared.inspect(KEY))
                .as("a closed candidacy does not stand again")
                .isEmpty();
        Leadership again = electionsA.lead("relay");
        assertThat(again).as("joining again makes a new candidacy").isNotSameAs(a);
        awaitLeader(again);
    }

    @Test
    void aStandbyClosedWhileWaitingLeavesWithoutEverLeading() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        Leadership b = electionsB.lead("relay");
        time.awaitWaiting(1);
        CompletableFuture<Long> granted = b.whenGranted().toCompletableFuture();
        b.close();
        assertThat(granted).isCompletedExceptionally();
        a.close();
        time.advanceMillis(10 * TTL);
        assertThat(shared.inspect(KEY)).as("B no longer stands").isEmpty();
        assertThat(journal).noneMatch(line -> line.startsWith("B"));
    }

    @Test
    void theShutdownRevokesBeforeTheLockIsGivenUp() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        long token = a.token().getAsLong();
        CompletableFuture<Leadership.Revocation> revoked = a.whenRevoked().toCompletableFuture();
        engineA.close(Duration.ofSeconds(5));
        assertThat(revoked.join().reason()).isEqualTo(Reason.SHUTDOWN);
        assertThat(holderSeenAtRevocation).containsExactly(token);
        assertThat(shared.inspect(KEY)).as("released at the shutdown").isEmpty();
        assertThatThrownBy(() -> electionsA.lead("other")).hasMessageContaining("shut down");
    }

    @Test
    void afterTheElectionsAreClosedNobodyJoinsThemAgain() {
        Leadership a = electionsA.lead("relay");
        awaitLeader(a);
        electionsA.closeAll();
        assertThat(a.isLeader()).isFalse();
        assertThat(shared.inspect(KEY)).as("released").isEmpty();
        assertThatThrownBy(() -> electionsA.lead("relay"))
                .isInstanceOf(dev.baton.LockException.class)
                .hasMessageContaining("shut down");
        time.advanceMillis(10 * TTL);
        assertThat(shared.inspect(KEY)).as("nobody stands again").isEmpty();
    }

    @Test
    void aStoreThatCannotBeReachedKeepsTheStandbyTryingUntilItCanLead() {
        storeA.down = true;
        Leadership a = electionsA.lead("relay");
        for (int i = 0; i < 5; i++) {
            time.awaitWaiting(1);
            time.advanceMillis(Candidacy.RETRY_AFTER_FAILURE_MILLIS);
        }
        assertThat(a.isLeader()).isFalse();
        storeA.down = false;
        for (int i = 0; i < 3 && !a.isLeader(); i++) {
            time.advanceMillis(Candidacy.RETRY_AFTER_FAILURE_MILLIS);
            awaitQuiet(a);
        }
        awaitLeader(a);
    }

    @Test
    void badNamesAreRefused() {
        assertThatThrownBy(() -> electionsA.lead(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> electionsA.lead(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> electionsA.lead("x".repeat(100_000))).isInstanceOf(IllegalArgumentException.class);
        Leadership a = electionsA.lead("relay");
        assertThatThrownBy(() -> a.stepDown(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    // --- helpers ---

    /** The store's holder of the election's lock when each revocation was told. */
    private final List<Long> holderSeenAtRevocation = new CopyOnWriteArrayList<>();

    private final class Journal implements LeadershipListener {
        private final String instance;

        Journal(String instance) {
            this.instance = instance;
        }

        @Override
        public void granted(LeadershipGranted granted) {
            journal.add(instance + " granted " + granted.token());
        }

        @Override
        public void revoked(LeadershipRevoked revoked) {
            shared.inspect(KEY).map(Holder::fencingToken).ifPresent(holderSeenAtRevocation::add);
            journal.add(instance + " revoked " + revoked.reason() + " " + revoked.token());
        }
    }

    private long tokenInStore() {
        return shared.inspect(KEY).orElseThrow().fencingToken();
    }

    private void advanceChecking(Leadership a, Leadership b, long millis) {
        time.advanceMillis(millis);
        assertThat(a.isLeader() && b.isLeader())
                .as("two leaders at %s ms", time.millis())
                .isFalse();
    }

    private static void awaitLeader(Leadership candidacy) {
        try {
            VirtualTime.awaitReal(candidacy::isLeader, candidacy + " leads");
        } catch (AssertionError e) {
            StringBuilder dump = new StringBuilder(e.getMessage());
            Thread.getAllStackTraces().forEach((thread, stack) -> {
                if (thread.getName().equals("standby")) {
                    dump.append("\n").append(thread).append(' ').append(thread.getState());
                    for (StackTraceElement frame : stack) {
                        dump.append("\n\tat ").append(frame);
                    }
                }
            });
            throw new AssertionError(dump.toString(), e);
        }
    }

    /** Lets a stand-by woken by the last step act before time moves on: until it leads or waits again. */
    private void awaitQuiet(Leadership candidacy) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        while (!candidacy.isLeader() && System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /** A view of the shared store that can be cut off: what one instance's partition looks like to it. */
    static final class Partitionable extends ForwardingLockStore {
        volatile boolean down;

        Partitionable(LockStore delegate) {
            super(delegate);
        }

        private void check() {
            if (down) {
                throw new LockStoreException("the store cannot be reached (partitioned in the test)");
            }
        }

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            check();
            return super.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            check();
            return super.renew(renewal);
        }

        @Override
        public boolean release(String key, String owner) {
            check();
            return super.release(key, owner);
        }

        @Override
        public java.util.Set<dev.baton.spi.Lease> renewAll(
                java.util.Collection<dev.baton.spi.Lease> leases, long ttlMillis, long maxWaitMillis) {
            check();
            return super.renewAll(leases, ttlMillis, maxWaitMillis);
        }

        @Override
        public void close() {
            // the shared store outlives each instance
        }
    }
}
