package dev.baton.jpa.internal;

import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A JPA provider's way to a connection of the persistence unit's pool outside any session
 * ({@link HibernateJdbc}, {@link EclipseLinkJdbc}). {@link DedicatedConnection} depends only on this interface,
 * so the provider classes, each loaded only when its provider is present, do not depend on it in turn;
 * {@link JpaProvider#jdbc} picks one.
 */
interface ProviderJdbc {

    /**
     * Takes a connection of {@code factory}'s persistence unit as its pool lends it.
     *
     * @param factory the provider's own factory
     * @return the connection and how to give it back
     * @throws SQLException if none could be had
     */
    Lent lend(EntityManagerFactory factory) throws SQLException;

    /**
     * A connection lent by the pool.
     *
     * @param connection the connection
     * @param giveBack gives it back to the pool
     */
    record Lent(Connection connection, GiveBack giveBack) {}

    /** How the provider takes a connection back. */
    @FunctionalInterface
    interface GiveBack {
        /**
         * Gives the connection back.
         *
         * @throws SQLException if the pool could not take it
         */
        void run() throws SQLException;
    }
}
