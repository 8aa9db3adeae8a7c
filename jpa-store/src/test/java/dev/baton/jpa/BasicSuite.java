package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.baton.LockStoreException;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The store's rules on one instance; run for every cell of the matrix (see {@code *Test} classes). */
public abstract class BasicSuite {

    private Backend backend;
    private String table;
    private JpaLockStore store;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @BeforeEach
    void createStore() {
        backend = backend();
        table = backend.tableName("basic");
        store = backend.store(table);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    static String owner() {
        return JpaTestOwners.owner();
    }

    static String key(String name) {
        return name + ":" + UUID.randomUUID();
    }

    @Test
    void acquireRenewReleaseAreCompareAndSet() {
        String key = key("basic");
        String a = owner();
        String b = owner();

        AcquireResult first = store.acquire(Acquisition.of(key, a, 60_000));
        assertThat(first.isAcquired()).isTrue();
        assertThat(first.fencingToken()).isPositive();

        AcquireResult other = store.acquire(Acquisition.of(key, b, 60_000));
        assertThat(other.isAcquired()).isFalse();
        assertThat(other.remainingLeaseMillis().orElse(-1)).isBetween(1L, 60_000L);
        assertThat(store.acquire(Acquisition.of(key, a, 60_000)).isAcquired())
                .as("a lock is taken once, also by its owner")
                .isFalse();

        assertThat(store.renew(Renewal.of(key, b, 60_000))).isFalse();
        assertThat(store.renew(Renewal.of(key, a, 60_000))).isTrue();
        assertThat(store.release(key, b)).isFalse();
        assertThat(store.release(key, a)).isTrue();
        assertThat(store.release(key, a)).isFalse();
        assertThat(store.renew(Renewal.of(key, a, 60_000)))
                .as("a released lock is not revived")
                .isFalse();

        AcquireResult again = store.acquire(Acquisition.of(key, b, 60_000));
        assertThat(again.isAcquired()).isTrue();
        assertThat(again.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(store.capabilities())
                .contains(StoreCapability.PERSISTENT, StoreCapability.REMAINING_LEASE)
                .doesNotContain(StoreCapability.NUL_IN_KEYS);
    }

    @Test
    void expiredLockIsFreeAndNeverRevived() {
        String key = key("expiry");
        String a = owner();
        AcquireResult first = store.acquire(Acquisition.of(key, a, 150));
        assertThat(first.isAcquired()).isTrue();

        String b = owner();
        List<AcquireResult> taken = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    AcquireResult r = store.acquire(Acquisition.of(key, b, 60_000));
                    if (r.isAcquired()) {
                        taken.add(r);
                    }
                    return r.isAcquired();
                });
        assertThat(taken.get(0).fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(store.renew(Renewal.of(key, a, 60_000))).isFalse();
        assertThat(store.release(key, a)).isFalse();
        assertThat(store.release(key, b)).isTrue();
    }

    @Test
    void expiredButNotTakenLockCannotBeRenewedOrReleased() throws InterruptedException {
        String key = key("stale");
        String a = owner();
        assertThat(store.acquire(Acquisition.of(key, a, 1)).isAcquired()).isTrue();
        Thread.sleep(20);
        assertThat(store.renew(Renewal.of(key, a, 60_000))).isFalse();
        assertThat(store.release(key, a)).isFalse();
        assertThat(store.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                .isTrue();
    }

    @Test
    void keysAreComparedExactly() {
        String nfc = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFC);
        String nfd = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFD);
        String base = "exact-" + UUID.randomUUID() + "-";
        List<String> keys = List.of(
                base + "k",
                base + "K",
                base + "a",
                base + "a ",
                base + nfc,
                base + nfd,
                base + "\uD83D\uDE00",
                base + "\uD83D\uDE01",
                base + "x".repeat(500 - base.length()));
        List<Long> tokens = new ArrayList<>();
        for (String key : keys) {
            AcquireResult r = store.acquire(Acquisition.of(key, owner(), 60_000));
            assertThat(r.isAcquired()).as("key [%s] is its own lock", key).isTrue();
            tokens.add(r.fencingToken());
        }
        assertThat(tokens).doesNotHaveDuplicates();
        for (String key : keys) {
            assertThat(storedKeys(key)).containsExactly(key);
        }
    }

    @Test
    void sqlLookingKeysAreStoredVerbatim() {
        List<String> keys = List.of(
                "'; DROP TABLE " + table + "; --",
                "\" OR 1=1 --",
                "a' OR 'a'='a",
                "k\\'; DELETE FROM " + table + " WHERE '1'='1",
                "%_*?");
        for (String key : keys) {
            String o = owner();
            assertThat(store.acquire(Acquisition.of(key, o, 60_000)).isAcquired())
                    .isTrue();
            assertThat(store.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                    .isFalse();
            assertThat(storedKeys(key)).containsExactly(key);
            assertThat(store.release(key, o)).isTrue();
        }
        assertThat(store.acquire(Acquisition.of("after-injection-" + UUID.randomUUID(), owner(), 1000))
                        .isAcquired())
                .isTrue();
    }

    /**
     * The store does not declare {@link StoreCapability#NUL_IN_KEYS} (PostgreSQL text cannot hold U+0000), so the
     * runtime refuses such keys before it calls; a direct caller gets what the database says: an answer, or a
     * {@link LockStoreException}. Either way the call gives its connection back and ends its transaction: more
     * failed calls than the pool has connections leave the store working.
     */
    @Test
    void aNulInAKeyIsLeftToTheDatabaseAndLeaksNothing() {
        String key = key("nul\u0000");
        String o = owner();
        for (int i = 0; i < 15; i++) {
            answersOrFailsInTheStore(() -> store.acquire(Acquisition.of(key, o, 60_000)));
            answersOrFailsInTheStore(() -> store.renew(Renewal.of(key, o, 60_000)));
            answersOrFailsInTheStore(() -> store.inspect(key));
            answersOrFailsInTheStore(() -> store.leaveTurn(key, o));
            answersOrFailsInTheStore(() -> store.release(key, o));
        }
        if (backend.database() == JpaDatabase.POSTGRESQL) {
            assertThatThrownBy(() -> store.acquire(Acquisition.of(key, o, 60_000)))
                    .as("PostgreSQL refuses the key")
                    .isInstanceOf(LockStoreException.class);
        }
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            String other = key("after-nul");
            assertThat(store.acquire(Acquisition.of(other, o, 60_000)).isAcquired())
                    .isTrue();
            assertThat(store.release(other, o)).isTrue();
        });
    }

    private static void answersOrFailsInTheStore(ThrowingCallable call) {
        try {
            call.call();
        } catch (LockStoreException expected) {
            // what the database said, wrapped
        } catch (Throwable e) {
            throw new AssertionError("expected an answer or a LockStoreException", e);
        }
    }

    @Test
    void ttlOfThirtyDaysIsKeptByTheDatabaseClock() {
        long thirtyDays = 2_592_000_000L;
        String key = key("long");
        String a = owner();
        assertThat(store.acquire(Acquisition.of(key, a, thirtyDays)).isAcquired())
                .isTrue();
        AcquireResult held = store.acquire(Acquisition.of(key, owner(), 1000));
        assertThat(held.remainingLeaseMillis().orElse(-1)).isBetween(thirtyDays - 60_000, thirtyDays);
        assertThat(store.renew(Renewal.of(key, a, thirtyDays))).isTrue();
        assertThat(store.release(key, a)).isTrue();
    }

    @Test
    void newInstanceSeesLiveLocksAndContinuesAboveEveryToken() {
        String key = key("restart");
        String a = owner();
        long token = store.acquire(Acquisition.of(key, a, 60_000)).fencingToken();
        try (JpaLockStore restarted = backend.store(table)) {
            assertThat(restarted.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                    .isFalse();
            assertThat(restarted.release(key, a)).isTrue();
            assertThat(restarted.acquire(Acquisition.of(key, owner(), 60_000)).fencingToken())
                    .isGreaterThan(token);
        }
    }

    @Test
    void aLockRowDeletedFromOutsideIsTakenAgainAndItsHolderLearnsOfTheLossAtRenewal() {
        String key = key("deleted");
        String a = owner();
        long token = store.acquire(Acquisition.of(key, a, 60_000)).fencingToken();
        backend.execute("DELETE FROM " + table + " WHERE lock_key = '" + key + "'"); // another session

        assertThat(store.renew(Renewal.of(key, a, 60_000)))
                .as("a renewal of a deleted row reports the loss (and writes no row back)")
                .isFalse();
        assertThat(storedKeys(key)).isEmpty();
        takenAgainAfterTheLossOf(key, a, token);
    }

    @Test
    void aLockForceReleasedFromOutsideIsTakenAgainAndItsHolderLearnsOfTheLossAtRenewal() {
        String key = key("forced");
        String a = owner();
        long token = store.acquire(Acquisition.of(key, a, 60_000)).fencingToken();
        // what an operator's "force release" does: the lease ended, by another session
        backend.execute(
                "UPDATE " + table + " SET expires_at = TIMESTAMP '2000-01-01 00:00:00' WHERE lock_key = '" + key + "'");

        assertThat(store.renew(Renewal.of(key, a, 60_000)))
                .as("the lease ended: the renewal reports the loss")
                .isFalse();
        takenAgainAfterTheLossOf(key, a, token);
    }

    /** Another owner takes {@code key} normally, above {@code token}; its former holder {@code a} has nothing. */
    private void takenAgainAfterTheLossOf(String key, String a, long token) {
        String b = owner();
        AcquireResult again = store.acquire(Acquisition.of(key, b, 60_000));
        assertThat(again.isAcquired()).as("taken again normally").isTrue();
        assertThat(again.fencingToken()).isGreaterThan(token);
        assertThat(store.renew(Renewal.of(key, a, 60_000))).isFalse();
        assertThat(store.release(key, a)).isFalse();
        assertThat(store.renew(Renewal.of(key, b, 60_000))).isTrue();
        assertThat(store.release(key, b)).isTrue();
    }

    private List<String> storedKeys(String key) {
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps = c.prepareStatement("SELECT lock_key FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            List<String> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
