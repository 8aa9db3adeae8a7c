package dev.baton.jpa.internal;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * One store operation on a connection of a {@link DataSource}, in a local transaction of its own: the
 * connection is taken for the operation and closed (given back to the pool) after it. The caller runs this
 * with no JTA transaction active (see {@link dev.baton.jpa.TransactionSuspender}), so even a connection of a
 * JTA data source is a plain one here. With pgjdbc the local transaction costs no round trip when the work
 * runs in autocommit ({@link Autocommit}): no statement ran inside it, so there is nothing to commit.
 */
public final class DataSourceJdbc {

    private DataSourceJdbc() {}

    /** Carries an {@link SQLException} through work that may not throw it (a {@link java.util.function.Supplier}). */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param cause the failure */
        public Failure(SQLException cause) {
            super(cause.getMessage(), cause);
        }

        /** @return the failure */
        public SQLException sql() {
            return (SQLException) getCause();
        }
    }

    /**
     * Runs {@code work} in a transaction of its own on a connection of {@code dataSource}; during a store call
     * ({@link CallBound#current()}) the connection is bounded by the call's network timeout from the moment it
     * is taken.
     *
     * @param dataSource the store's data source
     * @param work the operation
     * @param <T> the result type
     * @return the work's result
     * @throws SQLException if a statement failed (rolled back), or no connection could be had
     */
    public static <T> T inTransaction(DataSource dataSource, JdbcWork<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            CallBound bound = CallBound.current();
            boolean attached = bound != null && bound.attach(c);
            try {
                boolean autoCommit = c.getAutoCommit();
                if (autoCommit) {
                    c.setAutoCommit(false);
                }
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(c, e);
                    throw e;
                } finally {
                    if (autoCommit && !c.isClosed()) {
                        c.setAutoCommit(true); // the pool lends it as it was lent to the store
                    }
                }
            } finally {
                if (attached) {
                    bound.detach(c);
                }
            }
        }
    }

    private static void rollbackQuietly(Connection c, Exception failure) {
        try {
            if (!c.isClosed()) {
                c.rollback();
            }
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
