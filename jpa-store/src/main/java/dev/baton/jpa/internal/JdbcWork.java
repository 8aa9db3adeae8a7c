package dev.baton.jpa.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work on the JDBC connection of the store's own transaction.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface JdbcWork<T> {

    /**
     * Runs the work.
     *
     * @param connection the connection of the current transaction; not to be closed or committed
     * @return the result
     * @throws SQLException if a statement failed
     */
    T run(Connection connection) throws SQLException;
}
