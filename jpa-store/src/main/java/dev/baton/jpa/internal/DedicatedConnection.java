package dev.baton.jpa.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * A JDBC connection taken from the persistence unit's pool for longer than one transaction (the advisory
 * mode holds its database session locks on it), in auto-commit mode while the store has it; or
 * {@linkplain #lend lent} for one operation as the pool keeps it ({@link PooledAutocommit}).
 * {@link #giveBack} returns it as it was lent; {@link #discard} closes the physical session first, so the
 * database ends every lock it held and the pool never lends it again.
 */
public final class DedicatedConnection {

    private static final Executor DIRECT = Runnable::run;

    /** Lends connections for longer than one operation: the persistence unit's pool, or the data source. */
    @FunctionalInterface
    public interface Source {
        /**
         * @return a connection, in auto-commit mode while the store has it
         * @throws SQLException if none could be had
         */
        DedicatedConnection take() throws SQLException;
    }

    private final Connection connection;
    private final ProviderJdbc.GiveBack giveBack;
    /** Whether the store switched auto-commit on, to switch it off again when it gives the connection back. */
    private final boolean switched;

    private DedicatedConnection(Connection connection, ProviderJdbc.GiveBack giveBack, boolean switchToAutoCommit)
            throws SQLException {
        this.connection = connection;
        this.giveBack = giveBack;
        boolean previous;
        try {
            previous = connection.getAutoCommit();
            if (!previous && switchToAutoCommit) {
                // a session lock outlives transactions, but an open transaction on a held connection would not
                connection.setAutoCommit(true);
            }
        } catch (SQLException | RuntimeException e) {
            giveBackQuietly();
            throw e;
        }
        this.switched = !previous && switchToAutoCommit;
    }

    /**
     * Takes a connection of {@code factory}'s persistence unit (Hibernate ORM: its connection provider;
     * EclipseLink: its default connection pool).
     *
     * @param factory the store's factory
     * @return the connection
     * @throws SQLException if none could be had
     * @throws IllegalStateException if the JPA provider is neither
     */
    public static DedicatedConnection take(jakarta.persistence.EntityManagerFactory factory) throws SQLException {
        return take(factory, true);
    }

    /**
     * Takes a connection of {@code factory}'s persistence unit as its pool lends it, in the auto-commit mode
     * the pool keeps (no round trip to switch it: see {@link PooledAutocommit}).
     *
     * @param factory the store's factory
     * @return the connection
     * @throws SQLException if none could be had
     * @throws IllegalStateException if the JPA provider is neither Hibernate ORM nor EclipseLink
     */
    static DedicatedConnection lend(jakarta.persistence.EntityManagerFactory factory) throws SQLException {
        return take(factory, false);
    }

    /**
     * Takes a connection of {@code factory}'s persistence unit in auto-commit mode for one operation, switching
     * it on if the pool lent it off (and back when it is given back): only for drivers that switch auto-commit
     * without a round trip while no transaction is open (pgjdbc).
     *
     * @param factory the store's factory
     * @return the connection, in auto-commit mode
     * @throws SQLException if none could be had
     * @throws IllegalStateException if the JPA provider is neither Hibernate ORM nor EclipseLink
     */
    static DedicatedConnection lendInAutocommit(jakarta.persistence.EntityManagerFactory factory) throws SQLException {
        return take(factory, true);
    }

    private static DedicatedConnection take(jakarta.persistence.EntityManagerFactory factory, boolean autoCommit)
            throws SQLException {
        ProviderJdbc.Lent lent = JpaProvider.of(factory).jdbc(factory).lend(factory);
        return new DedicatedConnection(lent.connection(), lent.giveBack(), autoCommit);
    }

    /**
     * Takes a connection of a data source; giving it back closes it (a pooled data source takes it back).
     *
     * @param dataSource the store's data source
     * @return the connection
     * @throws SQLException if none could be had
     */
    public static DedicatedConnection take(javax.sql.DataSource dataSource) throws SQLException {
        Connection connection = dataSource.getConnection();
        return new DedicatedConnection(connection, connection::close, true);
    }

    /**
     * @param factory an entity manager factory
     * @return whether {@link #take} can lend connections of its persistence unit (Hibernate ORM, EclipseLink;
     *     also behind a CDI client proxy: {@link JpaProvider#of})
     */
    public static boolean supports(jakarta.persistence.EntityManagerFactory factory) {
        return JpaProvider.of(factory) != JpaProvider.OTHER;
    }

    /** @return the connection; not to be closed */
    public Connection connection() {
        return connection;
    }

    /** Gives the connection back to its pool, in the auto-commit mode it was lent in. */
    public void giveBack() {
        try {
            if (switched) {
                connection.setAutoCommit(false);
            }
        } catch (SQLException | RuntimeException e) {
            discard();
            return;
        }
        giveBackQuietly();
    }

    /** Ends the physical connection (the database ends its session and every lock of it), then gives it back. */
    public void discard() {
        try {
            connection.abort(DIRECT);
        } catch (SQLException | RuntimeException e) {
            try {
                connection.close();
            } catch (SQLException | RuntimeException ignored) {
                // gone already
            }
        }
        giveBackQuietly();
    }

    private void giveBackQuietly() {
        try {
            giveBack.run();
        } catch (SQLException | RuntimeException e) {
            // the pool could not take it back: it is closed, so its session is over
        }
    }
}
