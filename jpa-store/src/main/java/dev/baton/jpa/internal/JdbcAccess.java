package dev.baton.jpa.internal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Reaches the JDBC connection behind an entity manager's active transaction, so one statement can
 * both write and read back (RETURNING, FINAL TABLE), which JPA native queries cannot portably do.
 * Hibernate ORM hands it out through {@code Session.doReturningWork}, EclipseLink (and OpenJPA)
 * through {@code unwrap(Connection.class)}.
 */
public final class JdbcAccess {

    private static final String HIBERNATE_SESSION = "org.hibernate.Session";

    private JdbcAccess() {
    }

    /**
     * Runs {@code work} on the connection of {@code em}'s active transaction.
     *
     * @param em an entity manager with an active transaction
     * @param work the work
     * @param <T> the result type
     * @return the work's result
     * @throws PersistenceException wrapping the {@link SQLException} when a statement failed
     */
    public static <T> T withConnection(EntityManager em, JdbcWork<T> work) {
        if (isHibernate(em)) {
            return HibernateJdbc.run(em, work);
        }
        Connection connection = em.unwrap(Connection.class);
        if (connection == null) {
            throw new PersistenceException("The JPA provider (" + em.getClass().getName()
                    + ") gave no JDBC connection for the store's transaction");
        }
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
    }

    private static boolean isHibernate(EntityManager em) {
        try {
            Class<?> session = Class.forName(HIBERNATE_SESSION, false, JdbcAccess.class.getClassLoader());
            return session.isInstance(em) || session.isInstance(em.getDelegate());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
