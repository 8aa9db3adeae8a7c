package dev.baton.jpa.internal;

import dev.baton.LockConfigurationException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * {@code baton.jpa.data-source}: the data source bound to a JNDI name, looked up when the store is created if
 * that thread can ({@link #lookUpIfPossible()}: the runtime's own threads have no {@code java:comp} on some
 * servers, and one of them may use the store first), else when the store first takes a connection (and again
 * after a failed lookup), since not every server lets a deployment look names up while it deploys. A name that is not bound, or bound to something else, fails with a
 * {@link LockConfigurationException} naming the key and the value.
 */
public final class JndiDataSource implements DataSource {

    private final String name;
    private final String key;
    private volatile DataSource found;

    /**
     * @param name the JNDI name
     * @param key the setting's full key, for messages
     */
    public JndiDataSource(String name, String key) {
        this.name = name;
        this.key = key;
    }

    /**
     * Looks the name up now.
     *
     * @param name the JNDI name
     * @param key the setting's full key, for messages
     * @return the data source
     * @throws LockConfigurationException if the name is not bound, or not to a {@link DataSource}
     * @throws NamingException if there is no naming context to ask (e.g. Java SE, or not yet on this thread)
     */
    public static DataSource lookup(String name, String key) throws NamingException {
        Object bound;
        try {
            bound = new InitialContext().lookup(name);
        } catch (NameNotFoundException e) {
            throw new LockConfigurationException(
                    key + "='" + name + "' names no data source: nothing is bound to" + " that JNDI name ("
                            + e.getMessage() + ")",
                    e);
        }
        if (bound instanceof DataSource dataSource) {
            return dataSource;
        }
        throw new LockConfigurationException(key + "='" + name + "' is bound to "
                + (bound == null ? "null" : "a " + bound.getClass().getName()) + ", not a javax.sql.DataSource");
    }

    /**
     * Looks the name up now if this thread can, so that a store first used on a thread without the
     * application's naming context (a runtime's own thread, as a leader election's stand-by) finds it; else the
     * lookup waits for the first connection, as before.
     *
     * @return this
     */
    public JndiDataSource lookUpIfPossible() {
        if (found == null) {
            try {
                found = lookup(name, key);
            } catch (NamingException | RuntimeException e) {
                // no naming context on this thread (or not yet): the first connection looks it up and tells
            }
        }
        return this;
    }

    private DataSource dataSource() {
        DataSource d = found;
        if (d == null) {
            try {
                d = lookup(name, key);
            } catch (NamingException e) {
                throw new LockConfigurationException(key + "='" + name + "' could not be looked up: " + e, e);
            }
            found = d;
        }
        return d;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return dataSource().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return dataSource().getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return dataSource().getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        dataSource().setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        dataSource().setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return dataSource().getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return dataSource().getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : dataSource().unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || dataSource().isWrapperFor(type);
    }

    @Override
    public String toString() {
        return name;
    }
}
