package dev.baton.jpa.internal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Reaches the JDBC connection behind an entity manager's active transaction, so one statement can
 * both write and read back (RETURNING, FINAL TABLE), which JPA native queries cannot portably do.
 * Hibernate ORM hands it out through {@code Session.doReturningWork}, EclipseLink (and OpenJPA)
 * through {@code unwrap(Connection.class)}.
 *
 * <p>When a store call runs ({@link CallBound#current()}), the connection is bounded by the call's
 * network timeout from the moment the store reaches it: for Hibernate, before the transaction begins
 * (the store's session holds the connection, see {@link #open}); for EclipseLink, when EclipseLink
 * takes it from the pool (a session listener, see {@link #watch}); otherwise when the work starts.
 */
public final class JdbcAccess {

    private static final String HIBERNATE_SESSION = "org.hibernate.Session";

    private JdbcAccess() {}

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
        JdbcWork<T> bounded = bounded(work);
        if (isHibernate(em)) {
            return HibernateJdbc.run(em, bounded);
        }
        Connection connection = em.unwrap(Connection.class);
        if (connection == null) {
            throw new PersistenceException("The JPA provider (" + em.getClass().getName()
                    + ") gave no JDBC connection for the store's transaction");
        }
        try {
            return bounded.run(connection);
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
    }

    private static <T> JdbcWork<T> bounded(JdbcWork<T> work) {
        CallBound bound = CallBound.current();
        if (bound == null) {
            return work;
        }
        return connection -> {
            // a no-op when a provider hook bounded the connection already (it puts it back itself)
            boolean attached = bound.attach(connection);
            try {
                return work.run(connection);
            } finally {
                if (attached) {
                    bound.detach(connection);
                }
            }
        };
    }

    /**
     * An entity manager for one operation of the store's own: with Hibernate, a session that holds its
     * connection until it is closed, so {@link #connectionBeforeBegin} can bound it before the
     * transaction begins and the store can put its timeout back after the commit.
     *
     * @param factory the store's factory
     * @return a new entity manager; the caller closes it
     */
    public static EntityManager open(EntityManagerFactory factory) {
        if (isHibernate(factory)) {
            return HibernateJdbc.openHoldingConnection(factory);
        }
        return factory.createEntityManager();
    }

    /**
     * The connection an entity manager from {@link #open} will use, taken from the pool before its
     * transaction begins, where the provider allows it (Hibernate); otherwise null.
     *
     * @param em an entity manager from {@link #open}, with no transaction yet
     * @return the connection, or null
     */
    public static Connection connectionBeforeBegin(EntityManager em) {
        return isHibernate(em) ? HibernateJdbc.connection(em) : null;
    }

    /**
     * Lets the store bound the connections its calls take from {@code factory} as the provider takes
     * them from the pool (EclipseLink: a session listener, registered once per factory; it acts only
     * on a thread that runs a store call). Does nothing for other providers.
     *
     * @param factory the store's factory
     */
    public static void watch(EntityManagerFactory factory) {
        if (JpaProvider.of(factory) == JpaProvider.ECLIPSELINK) {
            try {
                EclipseLinkJdbc.watch(factory);
            } catch (RuntimeException | LinkageError e) {
                // not the EclipseLink the listener was built for: the work bounds the connection itself
            }
        }
    }

    private static boolean isHibernate(EntityManagerFactory factory) {
        return JpaProvider.of(factory) == JpaProvider.HIBERNATE;
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
