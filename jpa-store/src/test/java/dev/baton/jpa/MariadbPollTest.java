package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Turn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * MariaDB has no notification, so its waiters poll; a waiter's repeated poll that cannot take the key or its
 * turn is answered by a read, without drawing a sequence value (the upsert's {@code VALUES} draws one even
 * when it takes nothing).
 */
class MariadbPollTest {

    @Test
    void aWaitersRefusedPollDrawsNoSequenceValue() throws Exception {
        Backend backend = new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE);
        String table = backend.tableName("mpoll");
        try (JpaLockStore store = backend.store(table);
                Connection c = TestDatabases.connect(JpaDatabase.MARIADB)) {
            String key = "poll:" + UUID.randomUUID();
            assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000).isAcquired())
                    .isTrue();
            String oldest = JpaTestOwners.owner();
            assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000, 0, new Turn(oldest, 60_000, 60_000))
                            .isNextInTurn())
                    .isTrue();
            long before = nextValue(c, table);
            for (int i = 0; i < 50; i++) {
                AcquireResult younger = store.acquire(
                        key, JpaTestOwners.owner(), 60_000, 0, new Turn(JpaTestOwners.owner(), 10, 1_000));
                assertThat(younger.isAcquired() || younger.isNextInTurn()).isFalse();
                assertThat(younger.remainingLeaseMillis()).isPresent();
            }
            assertThat(nextValue(c, table))
                    .as("the sequence after 50 refused polls: no value drawn between")
                    .isEqualTo(before + 1);
            // The turn is still the oldest waiter's, and a poll of its own (which renews it) still works.
            assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000, 0, new Turn(oldest, 60_100, 60_000))
                            .isNextInTurn())
                    .isTrue();
            // An older waiter than the one in turn takes the turn over: the read leaves that to the upsert.
            String older = JpaTestOwners.owner();
            assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000, 0, new Turn(older, 120_000, 60_000))
                            .isNextInTurn())
                    .isTrue();
            // The control: a plain acquisition of the held key still draws one, so the figure shows draws.
            long again = nextValue(c, table);
            assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000).isAcquired())
                    .isFalse();
            assertThat(nextValue(c, table)).isEqualTo(again + 2);
        }
    }

    /** Draws a value: two draws one apart mean nobody drew between them (the server-wide cache hands out in order). */
    private static long nextValue(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT NEXTVAL(" + table + "_seq)")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
