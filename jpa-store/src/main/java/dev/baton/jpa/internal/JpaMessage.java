package dev.baton.jpa.internal;

import dev.baton.spi.LogMessage;
import java.lang.System.Logger.Level;

/**
 * The JPA store's log messages: each one's id ({@code BATON-JPA-nnn}), level and text, in one place. Like the
 * runtime's {@code BatonMessage} it implements the API's {@link LogMessage}; the {@code docs} module checks that the ids of all the registries are unique and match the reference. Each class
 * logs on its own logger, as before.
 *
 * <p>Patterns, arguments and how they are logged: {@link LogMessage}.
 */
public enum JpaMessage implements LogMessage {
    RETRYING("BATON-JPA-001", Level.DEBUG, "retrying {0} after {1}"),
    CONNECTED("BATON-JPA-002", Level.DEBUG, "connected: {0}, schema action {1}"),
    MARIADB_IDLE_TRANSACTIONS(
            "BATON-JPA-004",
            Level.WARNING,
            "The lock store''s MariaDB sessions keep the open transaction of a client that went silent {0}"
                    + " (idle_transaction_timeout): a process cut off or stopped between an acquisition and its"
                    + " COMMIT holds the key''s row, and the holder''s renewals wait for it until its lease runs out."
                    + " Add sessionVariables=idle_transaction_timeout=1 to the JDBC URL of the lock store''s data source."),
    ADVISORY_LOCKS_LOST(
            "BATON-JPA-005", Level.WARNING, "the connection of {0} advisory lock(s) {1}; they are lost: {2}"),
    NOT_LISTENING(
            "BATON-JPA-010",
            Level.WARNING,
            "Not listening on channel {0} within {1} ms; trying on, waiters poll meanwhile"),
    LISTENING_INTERRUPTED(
            "BATON-JPA-011",
            Level.WARNING,
            "Release notifications on channel {0} interrupted ({1}); waiters poll; listening again in" + " {2} ms"),
    LISTENER_FAILED("BATON-JPA-012", Level.WARNING, "A release listener failed"),
    PGJDBC_READ_STAYS("BATON-JPA-013", Level.DEBUG, "pgjdbc''s 1 ms read after each notification stays: {0}"),
    PURGE_FAILED("BATON-JPA-014", Level.WARNING, "the purge of {0} failed (the next one runs in {1} ms): {2}"),
    SEQUENCE_WENT_BACK(
            "BATON-JPA-015",
            Level.WARNING,
            "the fencing sequence {0} went back: it gave {1} after this store instance had handed out {2}"
                    + " (ALTER SEQUENCE ... RESTART, or the database restored from an older backup). Advisory-mode"
                    + " acquisitions of this instance are refused until it is above {2}. Fix: ALTER SEQUENCE {0} RESTART"
                    + " WITH <the highest token any instance handed out + 1>"),
    NO_SUSPENDER(
            "BATON-JPA-016",
            Level.WARNING,
            "Jakarta Transactions is present but the store''s @Transactional(NOT_SUPPORTED) bean is not (is the CDI"
                    + " extension {0} disabled?): on a JTA data source, a store call made inside a transaction would join it"),
    PURGED("BATON-JPA-017", Level.DEBUG, "purge of {0}: {1}"),
    PURGE_LOCK_NOT_RELEASED("BATON-JPA-018", Level.DEBUG, "could not release the purge lock: {0}"),
    NOTIFICATIONS_OFF(
            "BATON-JPA-019", Level.WARNING, "Release notifications on channel {0} are off, waiters poll: {1}"),
    PRIVATE_DATABASE(
            "BATON-JPA-020",
            Level.WARNING,
            "The JPA lock store ({0}) is on a database private to this JVM ({1}: {2}): its locks exclude only within"
                    + " this JVM, not other instances of the application. The default data source of Payara Micro and WildFly"
                    + " (java:comp/DefaultDataSource) is such a database in each instance. For more than one instance, give the"
                    + " store a data source or persistence unit on a database they all reach (PostgreSQL, MariaDB, or H2 in server"
                    + " mode); for one JVM this is fine.");

    private final String id;
    private final Level level;
    private final String pattern;

    JpaMessage(String id, Level level, String pattern) {
        this.id = id;
        this.level = level;
        this.pattern = pattern;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Level level() {
        return level;
    }

    @Override
    public String pattern() {
        return pattern;
    }
}
