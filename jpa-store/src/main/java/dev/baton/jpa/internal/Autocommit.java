package dev.baton.jpa.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs a store operation in autocommit on the connection of the store's own resource-local transaction,
 * before that transaction ran any statement: each statement commits by itself, and the transaction's
 * COMMIT then finds nothing to commit. With pgjdbc none of this costs a round trip: it sends {@code BEGIN}
 * only with a transaction's first statement, switches autocommit by itself while no transaction is open,
 * and sends no {@code COMMIT} for a transaction that never began on the server.
 */
public final class Autocommit {

    private Autocommit() {}

    /**
     * Runs {@code work} with autocommit on, and puts autocommit back as it was.
     *
     * @param c the connection of a transaction that has run no statement yet
     * @param work the operation
     * @param <T> the result type
     * @return what {@code work} returned
     * @throws SQLException if it failed
     */
    public static <T> T run(Connection c, JdbcWork<T> work) throws SQLException {
        boolean was = c.getAutoCommit();
        if (!was) {
            c.setAutoCommit(true);
        }
        try {
            return work.run(c);
        } finally {
            if (!was && !c.isClosed()) {
                c.setAutoCommit(false);
            }
        }
    }
}
