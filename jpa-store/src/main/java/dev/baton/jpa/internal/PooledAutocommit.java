package dev.baton.jpa.internal;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs one store operation on a connection of the persistence unit's pool, outside any JPA transaction:
 * where the driver spends a round trip on every switch of auto-commit (MariaDB Connector/J), the
 * transaction a JPA provider begins and ends around the store's statement would cost two or three round
 * trips more than the statement.
 *
 * <p>The connection is used in the auto-commit mode the pool lends it in, never switched: in auto-commit (what
 * HikariCP, Agroal, application servers' pools and EclipseLink's own pool lend) each statement commits by
 * itself, so an operation of one statement is one round trip and leaves no transaction open behind it; a
 * connection lent with auto-commit off (Hibernate's built-in pool, unless {@code
 * hibernate.connection.autocommit=true}) gets a {@code COMMIT} after the operation — the statement's
 * own round trip and the commit's, still fewer than switching auto-commit on and back.
 *
 * <p>The call's {@link CallBound} bounds the connection while the store has it.
 */
public final class PooledAutocommit {

    private PooledAutocommit() {}

    /**
     * Runs {@code work} on a connection of {@code factory}'s pool and commits it if the connection is not in
     * auto-commit mode.
     *
     * @param factory the store's factory (Hibernate ORM or EclipseLink: {@link DedicatedConnection#supports})
     * @param work the operation
     * @param <T> the result type
     * @return what {@code work} returned
     * @throws PersistenceException wrapping the {@link SQLException} when a statement failed
     */
    public static <T> T run(EntityManagerFactory factory, JdbcWork<T> work) {
        return run(factory, work, false);
    }

    /**
     * Runs {@code work} on a connection of {@code factory}'s pool in auto-commit mode: switched on if the pool
     * lent it off, and back before it returns to the pool. Only where the driver switches auto-commit without
     * a round trip (pgjdbc, while no transaction is open): one round trip per operation, whatever the pool.
     *
     * @param factory the store's factory (Hibernate ORM or EclipseLink: {@link DedicatedConnection#supports})
     * @param work the operation
     * @param <T> the result type
     * @return what {@code work} returned
     * @throws PersistenceException wrapping the {@link SQLException} when a statement failed
     */
    public static <T> T runSwitched(EntityManagerFactory factory, JdbcWork<T> work) {
        return run(factory, work, true);
    }

    private static <T> T run(EntityManagerFactory factory, JdbcWork<T> work, boolean switchOn) {
        DedicatedConnection lent;
        try {
            lent = switchOn ? DedicatedConnection.lendInAutocommit(factory) : DedicatedConnection.lend(factory);
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
        Connection c = lent.connection();
        CallBound bound = CallBound.current();
        boolean attached = bound != null && bound.attach(c);
        boolean done = false;
        try {
            T result = work.run(c);
            if (!c.getAutoCommit()) {
                c.commit();
            }
            done = true;
            return result;
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        } finally {
            if (!done) {
                rollbackQuietly(c);
            }
            if (attached) {
                bound.detach(c);
            }
            if (done || !isClosed(c)) {
                lent.giveBack(); // also after a lock wait timeout or a deadlock: the session is fine
            } else {
                lent.discard(); // the driver gave up on it (a network timeout): the pool never lends it again
            }
        }
    }

    private static boolean isClosed(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException | RuntimeException e) {
            return true;
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.isClosed() && !c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException | RuntimeException e) {
            // the connection is discarded anyway
        }
    }
}
