package dev.baton.jpa;

import java.util.Locale;

/** How the JPA store holds its locks ({@code baton.jpa.mode}). */
public enum LockMode {

    /**
     * A row per key in the lock table, with an expiry by the database clock: a holder that dies frees its
     * keys when its ttl runs out. Every supported database; locks outlive the store instance. The default.
     */
    TABLE,

    /**
     * A database session lock per key (PostgreSQL {@code pg_try_advisory_lock}, MariaDB {@code GET_LOCK}),
     * held on a connection of the store instance: a holder whose process dies or whose connection drops frees
     * its keys at once. Fencing tokens come from the same sequence as in table mode. PostgreSQL and MariaDB
     * only. See docs/stores.md.
     */
    ADVISORY;

    /**
     * The mode for a configuration value.
     *
     * @param value {@code table} or {@code advisory}, in any case
     * @return the mode
     * @throws IllegalArgumentException if the value is neither
     */
    public static LockMode parse(String value) {
        String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        for (LockMode mode : values()) {
            if (mode.name().equals(v)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a lock mode: use table or advisory");
    }
}
