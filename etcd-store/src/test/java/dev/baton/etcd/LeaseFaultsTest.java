package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.etcd.testing.TestEtcd;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Renewal;
import dev.baton.tck.faults.TcpProxy;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease under faults, with the holder's store behind a TCP proxy on a real etcd server: a holder cut off from the
 * cluster is told its lock is lost before the server frees it for another; a short cut costs nothing; a lease ended
 * from outside ends the lock; a write whose answer never came is undone.
 */
class LeaseFaultsTest {

    private static final long LONG_TTL = 60_000;

    private TcpProxy proxy;
    private EtcdLockStore holder;
    private EtcdLockStore other;

    @BeforeEach
    void start() throws Exception {
        proxy = new TcpProxy(TestEtcd.server().clientPort());
        proxy.start();
        other = TestEtcd.store("faults");
    }

    @AfterEach
    void stop() {
        if (holder != null) {
            holder.close();
        }
        other.close();
        proxy.close();
    }

    private EtcdLockStore holderThroughProxy(Duration leaseTtl) {
        holder = EtcdLockStore.builder("http://" + proxy.address())
                .root("/faults")
                .leaseTtl(leaseTtl)
                .operationTimeout(Duration.ofSeconds(5))
                .build();
        return holder;
    }

    @Test
    void aHolderCutOffIsToldItsLockIsLostBeforeAnotherCanTakeIt() throws Exception {
        EtcdLockStore cutOff = holderThroughProxy(Duration.ofSeconds(3));
        String key = "partitioned-" + UUID.randomUUID();
        String owner = "holder-" + UUID.randomUUID();
        assertThat(cutOff.acquire(Acquisition.of(key, owner, LONG_TTL)).isAcquired())
                .isTrue();

        proxy.blackHole();
        long cutAt = System.nanoTime();
        // the other instance tries every 20 ms from the cut on; the holder renews until it is told its lock is lost
        CompletableFuture<Long> takenAt = CompletableFuture.supplyAsync(() -> {
            while (System.nanoTime() - cutAt < TimeUnit.SECONDS.toNanos(20)) {
                if (other.acquire(Acquisition.of(key, "other-" + UUID.randomUUID(), LONG_TTL))
                        .isAcquired()) {
                    return System.nanoTime();
                }
                sleep(20);
            }
            return Long.MAX_VALUE;
        });
        long toldAt = Long.MAX_VALUE;
        while (System.nanoTime() - cutAt < TimeUnit.SECONDS.toNanos(20)) {
            try {
                if (!cutOff.renew(Renewal.of(key, owner, LONG_TTL))) {
                    toldAt = System.nanoTime();
                    break;
                }
            } catch (LockStoreException e) {
                // no answer yet: the holder cannot tell; it asks again
            }
        }
        long taken = takenAt.get(30, TimeUnit.SECONDS);

        assertThat(toldAt).as("the holder was told its lock is lost").isNotEqualTo(Long.MAX_VALUE);
        assertThat(taken).as("the server freed the key once the lease expired").isNotEqualTo(Long.MAX_VALUE);
        assertThat(TimeUnit.NANOSECONDS.toMillis(taken - toldAt))
                .as("ms between the holder told lost and another taking the key (never the other way round)")
                .isPositive();
        assertThat(cutOff.release(key, owner)).as("a lost lock is not released").isFalse();
    }

    @Test
    void aShortCutCostsTheHolderNothing() throws Exception {
        EtcdLockStore cut = holderThroughProxy(Duration.ofSeconds(6));
        String key = "cut-" + UUID.randomUUID();
        String owner = "holder-" + UUID.randomUUID();
        assertThat(cut.acquire(Acquisition.of(key, owner, LONG_TTL)).isAcquired())
                .isTrue();

        proxy.stop();
        Thread.sleep(500);
        proxy.start();

        Boolean renewed = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (renewed == null && System.nanoTime() - deadline < 0) {
            try {
                renewed = cut.renew(Renewal.of(key, owner, LONG_TTL));
            } catch (LockStoreException e) {
                Thread.sleep(100); // the client reconnects
            }
        }
        assertThat(renewed)
                .as("renewed after a cut of 500 ms, within the lease's grace")
                .isTrue();
        assertThat(other.acquire(Acquisition.of(key, "other", LONG_TTL)).isAcquired())
                .isFalse();
        assertThat(cut.release(key, owner)).isTrue();
    }

    @Test
    void aLeaseRevokedFromOutsideEndsTheLockAtOnce() throws Exception {
        EtcdLockStore revoked = holderThroughProxy(Duration.ofSeconds(30));
        String key = "revoked-" + UUID.randomUUID();
        String owner = "holder-" + UUID.randomUUID();
        assertThat(revoked.acquire(Acquisition.of(key, owner, LONG_TTL)).isAcquired())
                .isTrue();

        try (Client admin = Client.builder().endpoints(TestEtcd.endpoint()).build()) {
            KeyValue lock = lockKey(admin, "/faults/" + key);
            admin.getLeaseClient().revoke(lock.getLease()).get(5, TimeUnit.SECONDS);
        }

        AcquireResult next = other.acquire(Acquisition.of(key, "other", LONG_TTL));
        assertThat(next.isAcquired()).as("free once the lease was revoked").isTrue();
        assertThat(revoked.renew(Renewal.of(key, owner, LONG_TTL)))
                .as("the holder's renewal finds its key gone")
                .isFalse();
        assertThat(revoked.release(key, owner)).isFalse();
        assertThat(revoked.acquire(Acquisition.of(key + "-2", owner, LONG_TTL)).isAcquired())
                .as("the instance takes a new lease")
                .isTrue();
    }

    @Test
    void aHandOverAfterTheLeaseWasRevokedGivesTheNextOwnerAFreshLease() throws Exception {
        EtcdLockStore revoked = holderThroughProxy(Duration.ofSeconds(30));
        String key = "handed-" + UUID.randomUUID();
        String owner = "holder-" + UUID.randomUUID();
        long first = revoked.acquire(Acquisition.of(key, owner, LONG_TTL)).fencingToken();

        try (Client admin = Client.builder().endpoints(TestEtcd.endpoint()).build()) {
            admin.getLeaseClient()
                    .revoke(lockKey(admin, "/faults/" + key).getLease())
                    .get(5, TimeUnit.SECONDS);
        }
        HandOverResult handed = revoked.handOver(owner, Acquisition.of(key, "next-" + UUID.randomUUID(), LONG_TTL));

        assertThat(handed.released())
                .as("the revoked lock was not there to release")
                .isFalse();
        assertThat(handed.next().isAcquired())
                .as("the next owner took the freed key")
                .isTrue();
        assertThat(handed.next().fencingToken()).isGreaterThan(first);
        try (Client admin = Client.builder().endpoints(TestEtcd.endpoint()).build()) {
            KeyValue lock = lockKey(admin, "/faults/" + key);
            assertThat(admin.getLeaseClient()
                            .timeToLive(lock.getLease(), io.etcd.jetcd.options.LeaseOption.DEFAULT)
                            .get(5, TimeUnit.SECONDS)
                            .getTTL())
                    .as("the next owner's key is bound to a live lease")
                    .isPositive();
        }
    }

    @Test
    void noLockIsGivenOnALeaseWhoseGraceRanOut() throws Exception {
        // Found by the store properties on a loaded machine: a lock written on a lease no keep-alive had renewed for
        // two thirds of its ttl was given, then counted lost by its own store, whose next caller took the key.
        EtcdLockStore late = holderThroughProxy(Duration.ofSeconds(3));
        assertThat(late.acquire(Acquisition.of("warm-" + UUID.randomUUID(), "warm", LONG_TTL))
                        .isAcquired())
                .isTrue();
        proxy.blackHole();
        Thread.sleep(2_300); // no keep-alive answered for more than the grace (2 s); the server keeps the lease 3 s
        proxy.heal();

        String key = "late-" + UUID.randomUUID();
        String owner = "holder-" + UUID.randomUUID();
        AcquireResult taken = acquireAsTheClientReconnects(late, key, owner);
        assertThat(taken.isAcquired())
                .as("acquired once the store answers again")
                .isTrue();
        assertThat(late.renew(Renewal.of(key, owner, LONG_TTL)))
                .as("the lock just given is renewed: it is on a lease the store counts on")
                .isTrue();
        assertThat(late.acquire(Acquisition.of(key, "next-" + UUID.randomUUID(), LONG_TTL))
                        .isAcquired())
                .as("another owner of the same instance, right after")
                .isFalse();
        Thread.sleep(1_500); // past the end of the old lease on the server
        assertThat(other.acquire(Acquisition.of(key, "other", LONG_TTL)).isAcquired())
                .as("another instance, once the old lease is over on the server")
                .isFalse();
        assertThat(late.release(key, owner)).isTrue();
    }

    private static AcquireResult acquireAsTheClientReconnects(EtcdLockStore store, String key, String owner)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return store.acquire(Acquisition.of(key, owner, LONG_TTL));
            } catch (LockStoreException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(20); // the connection the heal cut: the client reconnects
            }
        }
    }

    @Test
    void anAcquisitionWhoseAnswerNeverCameIsUndone() throws Exception {
        EtcdLockStore blind = holderThroughProxy(Duration.ofSeconds(3));
        // a first call sets up the connection and the lease: the answers of the next are swallowed
        assertThat(blind.acquire(Acquisition.of("warm-" + UUID.randomUUID(), "warm", LONG_TTL))
                        .isAcquired())
                .isTrue();
        String key = "swallowed-" + UUID.randomUUID();
        proxy.swallowAnswers();

        assertThatThrownBy(() -> blind.acquire(Acquisition.of(key, "blind-" + UUID.randomUUID(), LONG_TTL, 500)))
                .isInstanceOf(LockStoreException.class);
        try (Client admin = Client.builder().endpoints(TestEtcd.endpoint()).build()) {
            assertThat(lockKey(admin, "/faults/" + key))
                    .as("the server acted on the acquisition whose answer never came")
                    .isNotNull();
        }
        proxy.heal();

        // the lease lives on (the keep-alives reach the server again): only the store's clean-up frees the key
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        boolean taken = false;
        while (!taken && System.nanoTime() - deadline < 0) {
            taken = other.acquire(Acquisition.of(key, "other", LONG_TTL)).isAcquired();
            Thread.sleep(100);
        }
        assertThat(taken).as("the key the lost answer left was deleted").isTrue();
    }

    private static KeyValue lockKey(Client admin, String etcdKey) throws Exception {
        List<KeyValue> kvs = admin.getKVClient()
                .get(ByteSequence.from(etcdKey, StandardCharsets.UTF_8))
                .get(5, TimeUnit.SECONDS)
                .getKvs();
        return kvs.isEmpty() ? null : kvs.get(0);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
