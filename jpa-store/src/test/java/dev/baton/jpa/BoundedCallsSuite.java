package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.RowLocks;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Store calls that meet a row lock of another transaction on their key (issue 9, items 11 to 13): they
 * wait no longer than their bound, an acquisition that ran out of time answers "not acquired", and a
 * lease written after a wait is a full ttl long.
 */
public abstract class BoundedCallsSuite {

    /** Generous: the bounds under test are 0 to 500 ms; a loaded 2-core machine must not fail this. */
    private static final long PROMPT_MILLIS = 5_000;

    /** How long a call that does not respect its bound is given before the test calls it hung. */
    private static final long HUNG_SECONDS = 20;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    private String lockRow(String table) {
        return "SELECT lock_key FROM " + table + " WHERE lock_key = ? FOR UPDATE";
    }

    // Item 11: the expiry is computed when the row is written, after the wait for it.
    @Test
    void anAcquisitionThatWaitedForTheLockRowLongerThanItsTtlWritesAFullLease() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("waited");
        long ttl = 2_000;
        try (JpaLockStore store = backend.store(table);
                RowLocks.Holder other = RowLocks.holder(backend.database())) {
            String key = "waited:" + UUID.randomUUID();
            store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 1));
            assertThat(other.lock(lockRow(table), key)).isEqualTo(1);

            CompletableFuture<AcquireResult> waiting = CompletableFuture.supplyAsync(
                    () -> store.acquire(Acquisition.of(key, JpaTestOwners.owner(), ttl, 60_000)));
            if (!RowLocks.awaitWaiting(backend.database(), table, Duration.ofSeconds(30), () -> !waiting.isDone())) {
                throw new AssertionError("the acquisition did not wait for the locked row: "
                        + waiting.handle((r, e) -> e != null ? e.toString() : r.toString())
                                .join());
            }
            // The acquisition waits longer than its ttl: a lease counted from before the wait would have run out.
            Thread.sleep(ttl + 500);
            other.release();

            assertThat(waiting.get(HUNG_SECONDS, TimeUnit.SECONDS).isAcquired())
                    .as("acquired after the wait")
                    .isTrue();
            AcquireResult second = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), ttl, 0));
            assertThat(second.isAcquired())
                    .as("a second owner right after: the first one's lease must be running")
                    .isFalse();
            assertThat(remainingLeaseMillis(table, key))
                    .as("the lease written after the wait, by the database clock")
                    .isGreaterThan(ttl - 1_500);
        }
    }

    // Items 12 and 13: an acquisition waits for the lock row no longer than its bound, then: not acquired.
    @Test
    void anAcquisitionWaitsForALockedRowNoLongerThanItsBound() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("bound");
        try (JpaLockStore store = backend.store(table);
                JpaLockStore shortDefault = JpaLockStore.builder(backend.sharedFactory())
                        .table(table)
                        .sequence(table + "_seq")
                        .statementTimeout(Duration.ofMillis(500))
                        .build();
                RowLocks.Holder other = RowLocks.holder(backend.database())) {
            String key = "bound:" + UUID.randomUUID();
            store.acquire(
                    Acquisition.of(key, JpaTestOwners.owner(), 1)); // free once it expires, but its row is locked:
            assertThat(other.lock(lockRow(table), key)).isEqualTo(1);
            String owner = JpaTestOwners.owner();

            long t0 = System.nanoTime();
            AcquireResult bounded = timed(() -> store.acquire(Acquisition.of(key, owner, 60_000, 300)));
            long waited = millisSince(t0);
            assertThat(bounded.isAcquired())
                    .as("the row is locked by another transaction")
                    .isFalse();
            assertThat(waited)
                    .as("ms the 300 ms acquisition took")
                    .isGreaterThanOrEqualTo(250)
                    .isLessThan(PROMPT_MILLIS);

            t0 = System.nanoTime();
            assertThat(timed(() -> store.acquire(Acquisition.of(key, owner, 60_000, 0)))
                            .isAcquired())
                    .isFalse();
            assertThat(millisSince(t0))
                    .as("ms the acquisition that must not wait took")
                    .isLessThan(PROMPT_MILLIS / 2);

            t0 = System.nanoTime();
            assertThat(timed(() -> shortDefault.acquire(Acquisition.of(key, owner, 60_000)))
                            .isAcquired())
                    .isFalse();
            assertThat(millisSince(t0))
                    .as("ms the three-argument acquisition took (statement timeout 500 ms)")
                    .isLessThan(PROMPT_MILLIS);

            other.release();
            AcquireResult after = store.acquire(Acquisition.of(key, owner, 60_000, 300));
            assertThat(after.isAcquired()).as("acquired once the row is free").isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    // Item 13: renewals and releases are bounded the same way, and fail when out of time.
    @Test
    void renewAndReleaseFailWithinTheirBoundBehindALockedRow() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("rbound");
        try (JpaLockStore store = backend.store(table);
                JpaLockStore shortDefault = JpaLockStore.builder(backend.sharedFactory())
                        .table(table)
                        .sequence(table + "_seq")
                        .statementTimeout(Duration.ofMillis(500))
                        .build();
                RowLocks.Holder other = RowLocks.holder(backend.database())) {
            String key = "rbound:" + UUID.randomUUID();
            String owner = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                    .isTrue();
            assertThat(other.lock(lockRow(table), key)).isEqualTo(1);

            long t0 = System.nanoTime();
            assertThatThrownBy(() -> timed(() -> store.renew(new Renewal(key, owner, 60_000, 300))))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("renew")
                    .hasMessageContaining("300 ms");
            assertThat(millisSince(t0)).as("ms the bounded renewal took").isLessThan(PROMPT_MILLIS);

            t0 = System.nanoTime();
            assertThatThrownBy(() -> timed(() -> store.renewAll(List.of(new Lease(key, owner)), 60_000, 300)))
                    .isInstanceOf(LockStoreException.class);
            assertThat(millisSince(t0)).as("ms the bounded batch renewal took").isLessThan(PROMPT_MILLIS);

            t0 = System.nanoTime();
            assertThatThrownBy(() -> timed(() -> shortDefault.release(key, owner)))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("release");
            assertThat(millisSince(t0))
                    .as("ms the release took (statement timeout 500 ms)")
                    .isLessThan(PROMPT_MILLIS);

            other.release();
            assertThat(store.renew(new Renewal(key, owner, 60_000, 300)))
                    .as("the lock is still there and renews")
                    .isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    // Item 12: a holder stalled inside its fenced transaction holds the key, but an acquisition waits
    // for it only within its own bound.
    @Test
    void aHolderStalledInItsFencedTransactionKeepsTheKeyButHoldsAcquisitionsOnlyWithinTheirBound() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("stall");
        String data = table + "_data";
        backend.execute("CREATE TABLE IF NOT EXISTS " + data + " (id INT PRIMARY KEY, n INT NOT NULL)");
        int id = Math.abs(UUID.randomUUID().hashCode() % 1_000_000);
        backend.execute("INSERT INTO " + data + " (id, n) VALUES (" + id + ", 0)");
        long ttl = 1_500;
        try (JpaLockStore store = backend.store(table)) {
            FencedWrites fenced = store.fencedWrites();
            String key = "stall:" + UUID.randomUUID();
            String holder = JpaTestOwners.owner();
            long acquiredAt = System.nanoTime();
            long token = store.acquire(Acquisition.of(key, holder, ttl)).fencingToken();

            EntityManager em = backend.sharedFactory().createEntityManager();
            try {
                em.getTransaction().begin();
                assertThat(fenced.executeUpdate(
                                em, key, token, "UPDATE " + data + " SET n = n + 1 WHERE id = ?1 AND {fence}", id))
                        .isEqualTo(1);
                // ... and the holder stalls with its transaction open, past its lease.

                // Its own renewal meanwhile: PostgreSQL's fence does not hold it back; MariaDB's and H2's
                // row locks do, within the renewal's bound.
                long t0 = System.nanoTime();
                if (backend.database() == JpaDatabase.POSTGRESQL) {
                    assertThat(timed(() -> store.renew(new Renewal(key, holder, ttl, 300))))
                            .isTrue();
                    acquiredAt = System.nanoTime();
                } else {
                    assertThatThrownBy(() -> timed(() -> store.renew(new Renewal(key, holder, ttl, 300))))
                            .isInstanceOf(LockStoreException.class);
                }
                assertThat(millisSince(t0)).isLessThan(PROMPT_MILLIS);
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(acquiredAt - System.nanoTime()) + ttl + 300));

                String next = JpaTestOwners.owner();
                t0 = System.nanoTime();
                AcquireResult bounded = timed(() -> store.acquire(Acquisition.of(key, next, 60_000, 300)));
                assertThat(bounded.isAcquired())
                        .as("taken over while the old holder's fenced transaction is open")
                        .isFalse();
                assertThat(millisSince(t0)).as("ms the 300 ms acquisition took").isLessThan(PROMPT_MILLIS);
                t0 = System.nanoTime();
                assertThat(timed(() -> store.acquire(Acquisition.of(key, next, 60_000, 0)))
                                .isAcquired())
                        .isFalse();
                assertThat(millisSince(t0))
                        .as("ms the acquisition that must not wait took")
                        .isLessThan(PROMPT_MILLIS / 2);

                em.getTransaction().commit();
                assertThat(store.acquire(Acquisition.of(key, next, 60_000, 1_000))
                                .isAcquired())
                        .as("taken once the holder committed")
                        .isTrue();
            } finally {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                em.close();
            }
        }
    }

    /** Runs a store call on another thread, failing the test if it hangs instead of returning. */
    private static <T> T timed(Supplier<T> call) throws InterruptedException, TimeoutException {
        CompletableFuture<T> future = CompletableFuture.supplyAsync(call);
        try {
            return future.get(HUNG_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("the store call did not return within " + HUNG_SECONDS + " s");
        }
    }

    private static long millisSince(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /** The lease of a key as the database sees it now, in ms (from the row, by the database clock). */
    private long remainingLeaseMillis(String table, String key) throws SQLException {
        String sql = switch (backend().database()) {
            case POSTGRESQL ->
                "SELECT CAST(EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000 AS BIGINT) FROM " + table
                        + " WHERE lock_key = ?";
            case MARIADB ->
                "SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000 FROM " + table
                        + " WHERE lock_key = ?";
            case H2 ->
                "SELECT DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP, expires_at) FROM " + table + " WHERE lock_key = ?";
        };
        try (Connection c =
                        dev.baton.jpa.testing.TestDatabases.connect(backend().database());
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }
}
