package dev.baton.jpa.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Each message of the registry reads as the store wrote it before the registry (the expected texts are the
 * concatenations it used), so operators' searches and alerts keep matching.
 */
class JpaMessageTest {

    private final SQLException sql = new SQLException("deadlock detected", "40P01");
    private final RuntimeException e = new RuntimeException("it's {0} down");

    @Test
    void textsAreTheStoresOwn() {
        assertThat(JpaMessage.RETRYING.format("acquire", sql))
                .isEqualTo("BATON-JPA-001 retrying " + "acquire" + " after " + sql);
        assertThat(JpaMessage.CONNECTED.format("PostgreSQL", "validate"))
                .isEqualTo("BATON-JPA-002 connected: " + "PostgreSQL" + ", schema action " + "validate");
        long seconds = 28_800;
        assertThat(JpaMessage.MARIADB_IDLE_TRANSACTIONS.format("for " + seconds + " s"))
                .isEqualTo(
                        "BATON-JPA-004 The lock store's MariaDB sessions keep the open"
                                + " transaction of a client that went silent "
                                + "for " + seconds + " s"
                                + " (idle_transaction_timeout): a process cut off or stopped between an acquisition and its"
                                + " COMMIT holds the key's row, and the holder's renewals wait for it until its lease runs out."
                                + " Add sessionVariables=idle_transaction_timeout=1 to the JDBC URL of the lock store's data source.");
        assertThat(JpaMessage.ADVISORY_LOCKS_LOST.format(3, "failed", e))
                .isEqualTo("BATON-JPA-005 the connection of " + 3 + " advisory lock(s) " + "failed"
                        + "; they are lost: " + e);
        long timeoutMillis = 12_000;
        assertThat(JpaMessage.NOT_LISTENING.format("baton_locks", timeoutMillis))
                .isEqualTo("BATON-JPA-010 Not listening on channel " + "baton_locks" + " within " + timeoutMillis
                        + " ms; trying on, waiters poll meanwhile");
        long backoff = 1_600;
        assertThat(JpaMessage.LISTENING_INTERRUPTED.format("baton_locks", e, backoff))
                .isEqualTo("BATON-JPA-011 Release notifications on channel " + "baton_locks" + " interrupted (" + e
                        + "); waiters poll; listening again in " + backoff + " ms");
        assertThat(JpaMessage.LISTENER_FAILED.format()).isEqualTo("BATON-JPA-012 A release listener failed");
        assertThat(JpaMessage.PGJDBC_READ_STAYS.format(e))
                .isEqualTo("BATON-JPA-013 pgjdbc's 1 ms read after each notification stays: " + e);
        long purgeIntervalMillis = 3_600_000;
        assertThat(JpaMessage.PURGE_FAILED.format("baton_locks", purgeIntervalMillis, e))
                .isEqualTo("BATON-JPA-014 the purge of " + "baton_locks" + " failed (the next one runs in "
                        + purgeIntervalMillis + " ms): " + e);
        String sequence = "baton_locks_seq";
        long token = 1_234;
        long before = 56_789;
        assertThat(JpaMessage.SEQUENCE_WENT_BACK.format(sequence, token, before))
                .isEqualTo("BATON-JPA-015 the fencing sequence " + sequence + " went back: it gave " + token
                        + " after this store instance had handed out " + before + " (ALTER SEQUENCE ..."
                        + " RESTART, or the database restored from an older backup). Advisory-mode"
                        + " acquisitions of this instance are refused until it is above " + before
                        + ". Fix: ALTER SEQUENCE " + sequence + " RESTART WITH <the highest token any"
                        + " instance handed out + 1>");
        String extension = dev.baton.jpa.internal.jta.JtaExtension.class.getName();
        assertThat(JpaMessage.NO_SUSPENDER.format(extension))
                .isEqualTo(
                        "BATON-JPA-016 Jakarta Transactions is present but the store's @Transactional(NOT_SUPPORTED) bean"
                                + " is not (is the CDI extension " + extension
                                + " disabled?): on a JTA data source, a store call made inside a transaction would join it");
        assertThat(JpaMessage.PURGED.format("baton_locks", 1_200 + " rows"))
                .isEqualTo("BATON-JPA-017 purge of " + "baton_locks" + ": " + "1200 rows");
        assertThat(JpaMessage.PURGE_LOCK_NOT_RELEASED.format(e))
                .isEqualTo("BATON-JPA-018 could not release the purge lock: " + e);
        assertThat(JpaMessage.NOTIFICATIONS_OFF.format("baton_locks", "no PGConnection"))
                .isEqualTo("BATON-JPA-019 Release notifications on channel " + "baton_locks"
                        + " are off, waiters poll: " + "no PGConnection");
        String store = "jpa, table baton_locks", what = "H2 in memory", database = "jdbc:h2:mem:x";
        assertThat(JpaMessage.PRIVATE_DATABASE.format(store, what, database))
                .isEqualTo("BATON-JPA-020 The JPA lock store (" + store + ") is on a database private to this JVM ("
                        + what + ": " + database + "): its locks exclude only within this JVM, not other"
                        + " instances of the application. The default data source of Payara Micro and WildFly"
                        + " (java:comp/DefaultDataSource) is such a database in each instance. For more than one"
                        + " instance, give the store a data source or persistence unit on a database they all"
                        + " reach (PostgreSQL, MariaDB, or H2 in server mode); for one JVM this is fine.");
    }
}
