package dev.baton.jpa.internal;

import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.eclipse.persistence.exceptions.DatabaseException;
import org.eclipse.persistence.internal.databaseaccess.Accessor;
import org.eclipse.persistence.sessions.DatasourceLogin;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;
import org.eclipse.persistence.sessions.server.ConnectionPool;
import org.eclipse.persistence.sessions.server.Server;

/**
 * EclipseLink's connections, seen when they are taken from and given back to the pool: EclipseLink
 * begins a transaction ({@code setAutoCommit(false)}, a round trip on some drivers) before the store
 * can reach the connection, and ends it ({@code commit}, {@code setAutoCommit(true)}) after. A session
 * listener bounds the connection as EclipseLink acquires it on a thread that runs a store call (see
 * {@link CallBound}), and puts the timeout back before EclipseLink releases it. Loaded only when
 * EclipseLink is the provider.
 */
final class EclipseLinkJdbc {

    private static final Map<Server, Boolean> WATCHED = Collections.synchronizedMap(new WeakHashMap<>());

    private static final SessionEventAdapter LISTENER = new SessionEventAdapter() {
        @Override
        public void postAcquireConnection(SessionEvent event) {
            CallBound bound = CallBound.current();
            Connection connection = connection(event);
            if (bound != null && connection != null) {
                bound.attach(connection);
            }
        }

        @Override
        public void preReleaseConnection(SessionEvent event) {
            CallBound bound = CallBound.current();
            Connection connection = connection(event);
            if (bound != null && connection != null) {
                bound.detach(connection);
            }
        }
    };

    private EclipseLinkJdbc() {}

    /** Registers the listener on the factory's server session, once. */
    static void watch(EntityManagerFactory factory) {
        Server server = factory.unwrap(Server.class);
        if (server != null && WATCHED.putIfAbsent(server, Boolean.TRUE) == null) {
            server.getEventManager().addListener(LISTENER);
        }
    }

    private static Connection connection(SessionEvent event) {
        return event.getResult() instanceof Accessor accessor ? accessor.getConnection() : null;
    }

    /**
     * A connection of the factory's default connection pool: of EclipseLink's internal pool, or of the data
     * source of an external one.
     */
    static ProviderJdbc.Lent lend(EntityManagerFactory factory) throws SQLException {
        Server server = factory.unwrap(Server.class);
        ConnectionPool pool = server.getDefaultConnectionPool();
        if (pool.getLogin() instanceof DatasourceLogin login && login.shouldUseExternalConnectionPooling()) {
            // A unit on a data source (<non-jta-data-source>, jakarta.persistence.nonJtaDataSource, a server's
            // data source): its pool lends accessors with no connection, which EclipseLink connects for each
            // call and closes after it. Take a connection of the data source as EclipseLink does; closing it
            // gives it back.
            Connection connection = fromDataSource(login, server);
            return new ProviderJdbc.Lent(connection, connection::close);
        }
        Accessor accessor = pool.acquireConnection();
        return new ProviderJdbc.Lent(accessor.getConnection(), () -> {
            if (accessor.getConnection() == null || accessor.getConnection().isClosed()) {
                accessor.setIsValid(false); // the pool drops it instead of lending it again
            }
            pool.releaseConnection(accessor);
        });
    }

    private static Connection fromDataSource(DatasourceLogin login, Server server) throws SQLException {
        Object connection;
        try {
            connection = login.connectToDatasource(null, server);
        } catch (DatabaseException e) {
            if (e.getInternalException() instanceof SQLException sql) {
                throw sql;
            }
            throw e;
        }
        if (connection instanceof Connection jdbc) {
            return jdbc;
        }
        throw new SQLException("EclipseLink's connector (" + login.getConnector() + ") gave "
                + (connection == null
                        ? "no connection"
                        : "a " + connection.getClass().getName() + ", not a java.sql.Connection"));
    }
}
