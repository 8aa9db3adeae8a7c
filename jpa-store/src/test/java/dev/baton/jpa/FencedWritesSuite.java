package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.jpa.internal.JdbcAccess;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.RowLocks;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * The JPA store's fenced writes (the specification's chapter on the shipped stores): a holder whose token was
 * overtaken cannot write.
 */
public abstract class FencedWritesSuite {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void staleHolderCannotWriteThroughTheHelper() {
        Backend backend = backend();
        String table = backend.tableName("fence");
        String data = table + "_data";
        backend.execute(
                "CREATE TABLE IF NOT EXISTS " + data + " (id INT PRIMARY KEY, val VARCHAR(50), fence BIGINT NOT NULL)");
        int id = Math.abs(UUID.randomUUID().hashCode() % 1_000_000);
        backend.execute("INSERT INTO " + data + " (id, val, fence) VALUES (" + id + ", 'init', 0)");
        try (JpaLockStore store = backend.store(table)) {
            FencedWrites fenced = store.fencedWrites();
            String key = "fence:" + UUID.randomUUID();
            String staleOwner = JpaTestOwners.owner();
            long stale = store.acquire(Acquisition.of(key, staleOwner, 60_000)).fencingToken();
            String update = "UPDATE " + data + " SET val = ?1 WHERE id = ?2 AND {fence}";

            assertThat(inTransaction(em -> fenced.executeUpdate(em, key, stale, update, "first", id)))
                    .isEqualTo(1);
            // The holder stalls past its lease: its last renewal ran with a 1 ms ttl.
            assertThat(store.renew(Renewal.of(key, staleOwner, 1))).isTrue();

            AcquireResult next = await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(
                            () -> store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000)),
                            AcquireResult::isAcquired);
            long current = next.fencingToken();
            assertThat(current).isGreaterThan(stale);

            assertThat(inTransaction(em -> fenced.executeUpdate(em, key, stale, update, "stale", id)))
                    .as("the overtaken holder writes nothing")
                    .isZero();
            assertThat(inTransaction(em -> fenced.executeUpdate(em, key, current, update, "current", id)))
                    .isEqualTo(1);
            assertThat(value(data, id)).isEqualTo("current");

            // The fence column pattern on the application's own rows.
            String fenceColumn = "UPDATE " + data + " SET val = ?1, fence = ?2 WHERE id = ?3 AND fence < ?2";
            assertThat(inTransaction(em -> em.createNativeQuery(fenceColumn)
                            .setParameter(1, "by-current")
                            .setParameter(2, current)
                            .setParameter(3, id)
                            .executeUpdate()))
                    .isEqualTo(1);
            assertThat(inTransaction(em -> em.createNativeQuery(fenceColumn)
                            .setParameter(1, "by-stale")
                            .setParameter(2, stale)
                            .setParameter(3, id)
                            .executeUpdate()))
                    .isZero();
            assertThat(value(data, id)).isEqualTo("by-current");

            // The same helper, found from an entity manager of the application (as with baton.store=jpa).
            FencedWrites detected = inTransactionGet(em -> FencedWrites.forDatabaseOf(em, table));
            assertThat(detected.condition("?1", "?2")).isEqualTo(fenced.condition("?1", "?2"));
            assertThat(inTransaction(em -> detected.executeUpdate(em, key, stale, update, "stale again", id)))
                    .isZero();
            assertThat(inTransaction(em -> detected.executeUpdate(em, key, current, update, "detected", id)))
                    .isEqualTo(1);
            assertThat(value(data, id)).isEqualTo("detected");
            assertThatThrownBy(() -> inTransactionGet(em -> FencedWrites.forDatabaseOf(em, "bad table")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bad table");

            assertThatThrownBy(() -> fenced.executeUpdate(null, key, current, "UPDATE x SET y = 1"))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> inTransaction(em -> fenced.executeUpdate(em, key, current, "UPDATE x SET y = 1")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("{fence}");
        }
    }

    // Issue 9, item 8: holder A's fenced write waits on a row lock of the protected data; meanwhile A's
    // lease ends and B acquires the key and reads the data to write it. A's write must either be
    // ordered before B's acquisition (B then reads it) or write nothing; never both A's and B's
    // writes accepted with one of them lost. On every isolation level the README allows.

    @Test
    void aFencedWriteWaitingOnARowIsOrderedBeforeTheNextHolderUnderReadCommitted() throws Exception {
        fencedWriteWaitingOnARow(Connection.TRANSACTION_READ_COMMITTED);
    }

    @Test
    void aFencedWriteWaitingOnARowIsOrderedBeforeTheNextHolderUnderRepeatableRead() throws Exception {
        fencedWriteWaitingOnARow(Connection.TRANSACTION_REPEATABLE_READ);
    }

    @Test
    void aFencedWriteWaitingOnARowIsOrderedBeforeTheNextHolderUnderSerializable() throws Exception {
        fencedWriteWaitingOnARow(Connection.TRANSACTION_SERIALIZABLE);
    }

    private void fencedWriteWaitingOnARow(int isolation) throws Exception {
        Backend backend = backend();
        String table = backend.tableName("fwait");
        String data = table + "_data";
        backend.execute("CREATE TABLE IF NOT EXISTS " + data + " (id INT PRIMARY KEY, n INT NOT NULL)");
        int id = Math.abs(UUID.randomUUID().hashCode() % 1_000_000);
        backend.execute("INSERT INTO " + data + " (id, n) VALUES (" + id + ", 0)");
        long ttl = 1_500;
        // The fenced transactions run on a factory of their own: they change their connections' isolation.
        EntityManagerFactory writers = backend.newFactory();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (JpaLockStore store = backend.store(table);
                RowLocks.Holder other = RowLocks.holder(backend.database())) {
            FencedWrites fenced = store.fencedWrites();
            String key = "fwait:" + UUID.randomUUID();
            long acquiredAt = System.nanoTime();
            long tokenA = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), ttl))
                    .fencingToken();
            assertThat(other.lock("SELECT n FROM " + data + " WHERE id = ? FOR UPDATE", id))
                    .isEqualTo(1);

            // A: increments n, fenced by its token; waits for the other transaction's row lock.
            CompletableFuture<Integer> a = CompletableFuture.supplyAsync(
                    () -> acceptedRows(
                            writers,
                            backend.database(),
                            isolation,
                            em -> fenced.executeUpdate(
                                    em,
                                    key,
                                    tokenA,
                                    "UPDATE " + data + " SET n = n + 1 WHERE id = ?1 AND {fence}",
                                    id)),
                    threads);
            if (!RowLocks.awaitWaiting(
                    backend.database(), "update " + data, Duration.ofSeconds(30), () -> !a.isDone())) {
                throw new AssertionError("A's fenced write did not wait for the other transaction's row lock: "
                        + a.handle((rows, e) -> e != null ? e.toString() : rows + " rows")
                                .join());
            }

            // A's lease ends while it waits. B tries to take the key; once it holds it, B reads n and
            // writes n + 1, fenced by its own token.
            long leaseOver = acquiredAt + TimeUnit.MILLISECONDS.toNanos(ttl + 300);
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(leaseOver - System.nanoTime())));
            AtomicInteger attempts = new AtomicInteger();
            AtomicInteger seenByB = new AtomicInteger(-1);
            CompletableFuture<Integer> b = CompletableFuture.supplyAsync(
                    () -> {
                        String ownerB = JpaTestOwners.owner();
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                        AcquireResult r;
                        do {
                            attempts.incrementAndGet();
                            r = store.acquire(Acquisition.of(key, ownerB, 60_000, 300));
                            if (!r.isAcquired()) {
                                sleep(50);
                            }
                        } while (!r.isAcquired() && System.nanoTime() < deadline);
                        assertThat(r.isAcquired())
                                .as("B takes the key once A is done")
                                .isTrue();
                        long tokenB = r.fencingToken();
                        return acceptedRows(writers, backend.database(), isolation, em -> {
                            int n = ((Number) em.createNativeQuery("SELECT n FROM " + data + " WHERE id = ?1")
                                            .setParameter(1, id)
                                            .getSingleResult())
                                    .intValue();
                            seenByB.set(n);
                            return fenced.executeUpdate(
                                    em,
                                    key,
                                    tokenB,
                                    "UPDATE " + data + " SET n = ?1 WHERE id = ?2 AND {fence}",
                                    n + 1,
                                    id);
                        });
                    },
                    threads);

            // Give B its chance to get in while A still waits (several attempts), then let A go on.
            long window = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (attempts.get() < 4 && seenByB.get() < 0 && System.nanoTime() < window) {
                Thread.sleep(20);
            }
            other.release();

            int rowsA = a.get(60, TimeUnit.SECONDS);
            int rowsB = b.get(60, TimeUnit.SECONDS);
            int n = intValue(data, id);
            assertThat(rowsB).as("B, the current holder, writes").isEqualTo(1);
            assertThat(seenByB.get())
                    .as(
                            "what B read: A's write (%d rows) must be ordered before B's acquisition, or write nothing",
                            rowsA)
                    .isEqualTo(rowsA);
            assertThat(n)
                    .as("n after %d accepted writes of A and %d of B", rowsA, rowsB)
                    .isEqualTo(rowsA + rowsB);
        } finally {
            threads.shutdownNow();
            writers.close();
        }
    }

    /** Runs a fenced write in a transaction of the given isolation; a write the database refused is 0 rows. */
    private static int acceptedRows(
            EntityManagerFactory factory, JpaDatabase database, int isolation, ToIntFunction<EntityManager> write) {
        EntityManager em = factory.createEntityManager();
        try {
            em.getTransaction().begin();
            JdbcAccess.withConnection(em, c -> {
                c.setTransactionIsolation(isolation);
                if (database == JpaDatabase.H2) {
                    try (Statement st = c.createStatement()) {
                        st.execute("SET LOCK_TIMEOUT 60000"); // H2's default, 2 s, is shorter than the test's waits
                    }
                }
                return null;
            });
            int rows;
            try {
                rows = write.applyAsInt(em);
                em.getTransaction().commit();
            } catch (RuntimeException e) {
                if (refusedByTheDatabase(e)) {
                    return 0; // a serialization failure or deadlock: the write was not accepted
                }
                throw e;
            }
            return rows;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private static boolean refusedByTheDatabase(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql
                    && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("40")) {
                return true;
            }
        }
        return false;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private int intValue(String data, int id) {
        try (Connection c = TestDatabases.connect(backend().database());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT n FROM " + data + " WHERE id = " + id)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private int inTransaction(ToIntFunction<EntityManager> work) {
        return inTransactionGet(work::applyAsInt);
    }

    private <T> T inTransactionGet(Function<EntityManager, T> work) {
        EntityManager em = backend().sharedFactory().createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private String value(String data, int id) {
        try (Connection c = TestDatabases.connect(backend().database());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT val FROM " + data + " WHERE id = " + id)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
