package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockLostException;
import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code Lock.extend}: the lease in the store, the renewals after it, and a renewal in flight meanwhile. */
class ExtendTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore memory = new MemoryLockStore();
    /** Every lease a batch renewed, as {@code ttl key}. */
    private final List<String> batched = new CopyOnWriteArrayList<>();
    /** The ttl of every renew call, in order. */
    private final List<Long> renewTtls = new CopyOnWriteArrayList<>();

    private volatile CountDownLatch holdRenewals;
    private final CountDownLatch renewalHeld = new CountDownLatch(1);
    private volatile boolean failRenewals;
    private final ForwardingLockStore store = new ForwardingLockStore(memory) {
        @Override
        public boolean renew(Renewal renewal) {
            intercept(renewal.ttlMillis());
            return super.renew(renewal);
        }

        @Override
        public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
            intercept(ttlMillis); // the memory store renews in batches
            leases.forEach(lease -> batched.add(ttlMillis + " " + lease.key()));
            return super.renewAll(leases, ttlMillis, maxWaitMillis);
        }

        private void intercept(long ttlMillis) {
            renewTtls.add(ttlMillis);
            if (failRenewals) {
                throw new LockStoreException("down");
            }
            CountDownLatch hold = holdRenewals;
            if (hold != null && ttlMillis == 600) {
                renewalHeld.countDown();
                try {
                    hold.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    };
    private final LockEngine engine = engines.engine(store, 600, 1_000);

    private long remainingInStore(String key) {
        return memory.inspect(key).orElseThrow().remainingLeaseMillis();
    }

    @Test
    void extendSetsTheLeaseInTheStoreAndRenewalsKeepTheNewTtl() {
        HeldLock lock = engine.acquire("long-job", 600, 1_000, true);

        lock.extend(Duration.ofSeconds(6));

        assertThat(remainingInStore("long-job")).isGreaterThan(5_000);
        assertThat(lock.validUntil()).isAfter(Instant.now().plusSeconds(5));
        renewTtls.clear();
        // Renewed every third of the new ttl (2 s) with the new ttl, never again with the old one.
        await().atMost(Duration.ofSeconds(5)).until(() -> !renewTtls.isEmpty());
        assertThat(renewTtls).containsOnly(6_000L);
        assertThat(lock.isHeld()).isTrue();
        lock.close();
    }

    @Test
    void extendIsValidatedLikeAnyTtl() {
        HeldLock lock = engine.acquire("checked", 600, 1_000, true);

        assertThatThrownBy(() -> lock.extend(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl must be positive");
        assertThatThrownBy(() -> lock.extend(Duration.ofDays(366))).hasMessageContaining("at most 365 days");
        assertThatThrownBy(() -> lock.extend(Duration.ofNanos(1_500_000))).hasMessageContaining("whole milliseconds");
        assertThatThrownBy(() -> lock.extend(null)).isInstanceOf(NullPointerException.class);
        lock.close();
        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(5)))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("released");
    }

    @Test
    void extendingALockTheStoreNoLongerHoldsLosesIt() {
        HeldLock lock = engine.acquire("taken-away", 600, 1_000, true);
        assertThat(memory.release(lock.storeKey(), lock.owner())).isTrue(); // as a forced release would

        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(5)))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("no longer holds it");
        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.whenLost()
                        .toCompletableFuture()
                        .orTimeout(5, TimeUnit.SECONDS)
                        .join())
                .isNotNull();
    }

    @Test
    void aFailingStoreLeavesTheLeaseAsItWas() {
        HeldLock lock = engine.acquire("kept", 600, 1_000, true);
        failRenewals = true;

        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(5))).isInstanceOf(LockStoreException.class);

        assertThat(remainingInStore("kept")).isLessThanOrEqualTo(600);
        failRenewals = false;
        assertThat(lock.isHeld()).isTrue();
        lock.close();
    }

    @Test
    void aRenewalInFlightCannotCutTheExtendedLeaseBack() throws Exception {
        HeldLock lock = engine.acquire("raced", 600, 1_000, true);
        holdRenewals = new CountDownLatch(1);
        assertThat(renewalHeld.await(5, TimeUnit.SECONDS))
                .as("a renewal with the old ttl is in flight")
                .isTrue();

        Thread extender = new Thread(() -> lock.extend(Duration.ofSeconds(10)), "extender");
        extender.start();
        extender.join(100);
        assertThat(extender.isAlive())
                .as("extend waits for the renewal in flight")
                .isTrue();
        holdRenewals.countDown();
        extender.join(5_000);

        assertThat(extender.isAlive()).isFalse();
        assertThat(remainingInStore("raced"))
                .as("the old renewal landed first; the extension after it")
                .isGreaterThan(9_000);
        assertThat(lock.isHeld()).isTrue();
        lock.close();
    }

    @Test
    void anExtendedLockIsNeverTakenAlongByABatchOfItsOldTtl() {
        HeldLock extended = engine.acquire("extended", 600, 1_000, true);
        HeldLock other = engine.acquire("other", 600, 1_000, true);

        extended.extend(Duration.ofSeconds(6));
        batched.clear();
        // "other" is renewed every 200 ms with 600 ms, and would take along a lock of that ttl due soon.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> batched.stream().filter(b -> b.equals("600 other")).count() >= 5);

        assertThat(batched).doesNotContain("600 extended");
        assertThat(remainingInStore("extended")).isGreaterThan(4_000);
        extended.close();
        other.close();
    }
}
