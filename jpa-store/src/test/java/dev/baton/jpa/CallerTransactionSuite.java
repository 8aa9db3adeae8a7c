package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
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
            store.acquire(rowLocked, o0, 60_000);

            EntityManager caller = backend.sharedFactory().createEntityManager();
            try {
                caller.getTransaction().begin();
                // The caller holds a row lock on the lock table, in a transaction that stays open.
                caller.createNativeQuery("SELECT lock_key FROM " + table + " WHERE lock_key = ?1 FOR UPDATE")
                        .setParameter(1, rowLocked)
                        .getResultList();

                String key = "caller:" + UUID.randomUUID();
                String owner = JpaTestOwners.owner();
                long token = store.acquire(key, owner, 60_000).fencingToken();
                assertThat(committedToken(backend, table, key))
                        .as("visible to another connection while the caller's transaction is open")
                        .isEqualTo(token);
                assertThat(store.renew(key, owner, 60_000)).isTrue();

                caller.getTransaction().rollback();

                assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000).isAcquired())
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
