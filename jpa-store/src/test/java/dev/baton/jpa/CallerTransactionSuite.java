package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The store's statements never join the caller's transaction. */
public abstract class CallerTransactionSuite {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void lockIsCommittedOnItsOwnAndSurvivesTheCallersRollback() throws SQLException {
        Backend backend = backend();
        String table = backend.tableName("caller");
        try (JpaLockStore store = backend.store(table)) {
            String rowLocked = "caller-row:" + UUID.randomUUID();
            String o0 = JpaTestOwners.owner();
            store.acquire(Acquisition.of(rowLocked, o0, 60_000));

            EntityManager caller = backend.sharedFactory().createEntityManager();
            try {
                caller.getTransaction().begin();
                // The caller holds a row lock on the lock table, in a transaction that stays open.
                caller.createNativeQuery("SELECT lock_key FROM " + table + " WHERE lock_key = ?1 FOR UPDATE")
                        .setParameter(1, rowLocked)
                        .getResultList();

                String key = "caller:" + UUID.randomUUID();
                String owner = JpaTestOwners.owner();
                long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
                assertThat(committedToken(backend, table, key))
                        .as("visible to another connection while the caller's transaction is open")
                        .isEqualTo(token);
                assertThat(store.renew(Renewal.of(key, owner, 60_000))).isTrue();

                caller.getTransaction().rollback();

                assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                                .isAcquired())
                        .as("still held after the caller's rollback")
                        .isFalse();
                assertThat(store.release(key, owner)).isTrue();
                assertThat(store.release(rowLocked, o0)).isTrue();
            } finally {
                if (caller.getTransaction().isActive()) {
                    caller.getTransaction().rollback();
                }
                caller.close();
            }
        }
    }

    @Test
    void aReleaseInsideTheCallersTransactionIsVisibleAtOnceAndSurvivesItsRollback() {
        Backend backend = backend();
        String table = backend.tableName("callrel");
        try (JpaLockStore store = backend.store(table)) {
            String key = "caller-release:" + UUID.randomUUID();
            String owner = JpaTestOwners.owner();
            long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
            EntityManager caller = backend.sharedFactory().createEntityManager();
            try {
                caller.getTransaction().begin();
                callerLocksARow(caller, store, table);
                assertThat(store.release(key, owner)).isTrue();
                String next = JpaTestOwners.owner();
                AcquireResult taken = CompletableFuture.supplyAsync(
                                () -> store.acquire(Acquisition.of(key, next, 60_000)))
                        .join();
                assertThat(taken.isAcquired())
                        .as("another session takes the key while the caller's transaction is open")
                        .isTrue();
                assertThat(taken.fencingToken()).isGreaterThan(token);

                caller.getTransaction().rollback();

                assertThat(store.release(key, owner))
                        .as("the release was not undone")
                        .isFalse();
                assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                                .isAcquired())
                        .as("the next holder's acquisition was not undone either")
                        .isFalse();
                assertThat(store.release(key, next)).isTrue();
            } finally {
                end(caller);
            }
        }
    }

    @Test
    void theCallersCommitNeitherRepeatsNorUndoesTheStoresWork() throws SQLException {
        Backend backend = backend();
        String table = backend.tableName("callcom");
        try (JpaLockStore store = backend.store(table)) {
            String key = "caller-commit:" + UUID.randomUUID();
            String owner = JpaTestOwners.owner();
            EntityManager caller = backend.sharedFactory().createEntityManager();
            try {
                caller.getTransaction().begin();
                callerLocksARow(caller, store, table);
                long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
                assertThat(committedToken(backend, table, key))
                        .as("visible to another session before the caller commits")
                        .isEqualTo(token);
                caller.getTransaction().commit();
                assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                                .isAcquired())
                        .as("held after the caller's commit")
                        .isFalse();

                caller.getTransaction().begin();
                callerLocksARow(caller, store, table);
                assertThat(store.release(key, owner)).isTrue();
                caller.getTransaction().commit();
                assertThat(store.release(key, owner)).as("released once").isFalse();
                assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                                .fencingToken())
                        .isGreaterThan(token);
            } finally {
                end(caller);
            }
        }
    }

    /**
     * The caller locks a row of the lock table in its transaction (another key's, as the first test does): its
     * transaction is open on the database. Not a key that has no row: InnoDB would lock the gap, where the
     * store's insert of a new key then waits for the caller.
     */
    private static void callerLocksARow(EntityManager caller, JpaLockStore store, String table) {
        String rowLocked = "caller-row:" + UUID.randomUUID();
        store.acquire(Acquisition.of(rowLocked, JpaTestOwners.owner(), 60_000));
        caller.createNativeQuery("SELECT lock_key FROM " + table + " WHERE lock_key = ?1 FOR UPDATE")
                .setParameter(1, rowLocked)
                .getResultList();
    }

    private static void end(EntityManager caller) {
        if (caller.getTransaction().isActive()) {
            caller.getTransaction().rollback();
        }
        caller.close();
    }

    private static long committedToken(Backend backend, String table, String key) throws SQLException {
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps = c.prepareStatement("SELECT token FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }
}
