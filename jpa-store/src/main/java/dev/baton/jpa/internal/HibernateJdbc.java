package dev.baton.jpa.internal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.resource.jdbc.spi.PhysicalConnectionHandlingMode;

/** Hibernate ORM's way to the connection; loaded only when Hibernate is the provider. */
final class HibernateJdbc {

    private HibernateJdbc() {}

    static <T> T run(EntityManager em, JdbcWork<T> work) {
        // Hibernate turns an SQLException into a JDBCException that keeps it as the cause.
        return em.unwrap(Session.class).doReturningWork(work::run);
    }

    /**
     * A session that keeps its connection until it is closed (not only until its transaction ends), so
     * the store can bound the connection before the transaction begins and put its network timeout
     * back after the commit, before the connection returns to the pool.
     */
    static EntityManager openHoldingConnection(EntityManagerFactory factory) {
        return factory.unwrap(SessionFactory.class)
                .withOptions()
                .connectionHandlingMode(PhysicalConnectionHandlingMode.DELAYED_ACQUISITION_AND_HOLD)
                .openSession();
    }

    /** The session's JDBC connection, taken from the pool now if it has none yet. */
    static Connection connection(EntityManager em) {
        return em.unwrap(SharedSessionContractImplementor.class)
                .getJdbcCoordinator()
                .getLogicalConnection()
                .getPhysicalConnection();
    }

    /** A connection of the factory's own connection provider (its pool or data source), outside any session. */
    static ProviderJdbc.Lent lend(EntityManagerFactory factory) throws java.sql.SQLException {
        ConnectionProvider provider = factory.unwrap(SessionFactoryImplementor.class)
                .getServiceRegistry()
                .requireService(ConnectionProvider.class);
        Connection connection = provider.getConnection();
        return new ProviderJdbc.Lent(connection, () -> provider.closeConnection(connection));
    }
}
