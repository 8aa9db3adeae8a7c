package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * MariaDB and H2 have no notification, so their waiters poll; a waiter's repeated poll that cannot take the key
 * or its turn is answered by a read: no row lock (exclusive on both for an acquisition, so a poll would wait for
 * a fenced write of the holder's and, on H2, hold up the holder's renewal and release) and, on MariaDB, no
 * sequence value (its upsert draws one in {@code VALUES} even when it takes nothing).
 */
class RefusedPollTest {

    private static final long MINUTE = 60_000;

    @Test
    void aWaitersRefusedPollDrawsNoSequenceValueOnMariadb() throws Exception {
        Backend backend = new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE);
        String table = backend.tableName("mpoll");
        try (JpaLockStore store = backend.store(table);
                Connection c = TestDatabases.connect(JpaDatabase.MARIADB)) {
            String key = "poll:" + UUID.randomUUID();
            String oldest = heldWithAWaiterInTurn(store, key);
            long before = nextValue(c, table);
            for (int i = 0; i < 50; i++) {
                AcquireResult younger = store.acquire(new Acquisition(
                        key, JpaTestOwners.owner(), MINUTE, 0, new Turn(JpaTestOwners.owner(), 10, 1_000)));
                assertThat(younger.isAcquired() || younger.isNextInTurn()).isFalse();
                assertThat(younger.remainingLeaseMillis()).isPresent();
            }
            assertThat(nextValue(c, table))
                    .as("the sequence after 50 refused polls: no value drawn between")
                    .isEqualTo(before + 1);
            // The turn is still the oldest waiter's, and a poll of its own (which renews it) still works.
            assertThat(store.acquire(new Acquisition(
                                    key, JpaTestOwners.owner(), MINUTE, 0, new Turn(oldest, MINUTE + 100, MINUTE)))
                            .isNextInTurn())
                    .isTrue();
            // An older waiter than the one in turn takes the turn over: the read leaves that to the upsert.
            String older = JpaTestOwners.owner();
            assertThat(store.acquire(new Acquisition(
                                    key, JpaTestOwners.owner(), MINUTE, 0, new Turn(older, 2 * MINUTE, MINUTE)))
                            .isNextInTurn())
                    .isTrue();
            // The control: a plain acquisition of the held key still draws one, so the figure shows draws.
            long again = nextValue(c, table);
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), MINUTE))
                            .isAcquired())
                    .isFalse();
            assertThat(nextValue(c, table)).isEqualTo(again + 2);
        }
    }

    /**
     * Another transaction holds the key's row lock (as the holder's fenced write does while it is open): a
     * younger waiter's repeated poll is answered at once, from a read, with the holder's remaining lease. Were it
     * to lock the row first, it would wait for that transaction until its bound ran out and answer "not acquired"
     * without a lease. The one in turn, whose poll renews its turn with a write, still waits: the control.
     */
    @ParameterizedTest
    @EnumSource(
            value = JpaDatabase.class,
            names = {"MARIADB", "H2"})
    void aWaitersRefusedPollDoesNotWaitForTheRowLock(JpaDatabase database) throws Exception {
        Backend backend = new Backend(database, Provider.HIBERNATE);
        String table = backend.tableName("rlpoll");
        try (JpaLockStore store = backend.store(table);
                Connection locking = TestDatabases.connect(database)) {
            String key = "poll:" + UUID.randomUUID();
            String oldest = heldWithAWaiterInTurn(store, key);

            locking.setAutoCommit(false);
            try (PreparedStatement lock =
                    locking.prepareStatement("SELECT lock_key FROM " + table + " WHERE lock_key = ? FOR UPDATE")) {
                lock.setString(1, key);
                lock.executeQuery().close();

                for (int i = 0; i < 3; i++) {
                    AcquireResult younger = store.acquire(new Acquisition(
                            key, JpaTestOwners.owner(), MINUTE, 1_000, new Turn(JpaTestOwners.owner(), 10, 1_000)));
                    assertThat(younger.isAcquired() || younger.isNextInTurn()).isFalse();
                    assertThat(younger.remainingLeaseMillis())
                            .as(
                                    "a refused poll on %s while another transaction holds the row: answered by a read,"
                                            + " with the holder's remaining lease",
                                    database)
                            .isPresent();
                    assertThat(younger.remainingLeaseMillis().getAsLong()).isBetween(1L, MINUTE);
                }
                AcquireResult inTurn = store.acquire(new Acquisition(
                        key, JpaTestOwners.owner(), MINUTE, 300, new Turn(oldest, MINUTE + 100, MINUTE)));
                assertThat(inTurn.isAcquired()).isFalse();
                assertThat(inTurn.remainingLeaseMillis())
                        .as("the waiter in turn writes, so it waits for the row lock and runs out of its bound")
                        .isEmpty();
            } finally {
                locking.rollback();
            }
        }
    }

    /**
     * Has a holder take {@code key} and a waiter that has waited a minute take its turn.
     *
     * @return the waiter in turn
     */
    private static String heldWithAWaiterInTurn(JpaLockStore store, String key) {
        assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), MINUTE))
                        .isAcquired())
                .isTrue();
        String oldest = JpaTestOwners.owner();
        assertThat(store.acquire(new Acquisition(
                                key, JpaTestOwners.owner(), MINUTE, 0, new Turn(oldest, MINUTE, MINUTE)))
                        .isNextInTurn())
                .isTrue();
        return oldest;
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
