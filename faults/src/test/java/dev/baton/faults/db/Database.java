package dev.baton.faults.db;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * A private database server the suite starts, stops and restarts itself, with its data under
 * {@code target/}. Never the machine's shared servers.
 */
public abstract class Database implements Server {

    /** @return which database */
    public abstract JpaDatabase kind();

    @Override
    public abstract int port();

    /**
     * The JDBC URL for a worker, through a proxy on another port, with the socket timeouts a careful
     * user sets (the store's README asks for them).
     *
     * @param port the proxy's port
     * @return the URL
     */
    public abstract String workerUrl(int port);

    /** @return a URL straight to the server, for the suite's own statements */
    public String directUrl() {
        return workerUrl(port());
    }

    @Override
    public abstract void stop(boolean immediate);

    /** Starts the server again on the same port and data, and waits until it accepts connections. */
    @Override
    public abstract void start();

    /** The suite does not pause a database: a paused database is an outage, which {@link #stop} covers. */
    @Override
    public void pause(boolean paused) {
        throw new UnsupportedOperationException("the suite does not pause " + title());
    }

    @Override
    public String title() {
        return kind() == JpaDatabase.POSTGRESQL ? "PostgreSQL" : "MariaDB";
    }

    /**
     * @return a connection straight to the server
     * @throws SQLException if it cannot be reached
     */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(directUrl());
    }

    /**
     * Ends the sessions of a client the way a DBA (or the database's own timeouts) would: PostgreSQL
     * {@code pg_terminate_backend} of the sessions that hold advisory locks, MariaDB {@code KILL} of every
     * session (MariaDB shows no session's {@code GET_LOCK} locks without a plugin).
     *
     * @param clientPorts the client's connections, by their local port (a proxy's upstream ports)
     * @return how many sessions were ended
     */
    public int killSessions(java.util.Set<Integer> clientPorts) {
        if (clientPorts.isEmpty()) {
            return 0;
        }
        try (Connection c = connect()) {
            return killSessions(c, clientPorts);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot end sessions on " + title() + ": " + e, e);
        }
    }

    /**
     * @param c a connection of the suite
     * @param clientPorts the client's connections, by their local port
     * @return how many sessions were ended
     * @throws SQLException if the database refuses
     */
    protected abstract int killSessions(Connection c, java.util.Set<Integer> clientPorts) throws SQLException;

    /**
     * Waits until the server accepts connections.
     *
     * @param limit how long at most
     */
    protected void awaitConnections(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = connect()) {
                c.createStatement().execute("SELECT 1");
                return;
            } catch (SQLException e) {
                last = e;
                Processes.sleep(100);
            }
        }
        throw new IllegalStateException(title() + " did not accept connections within " + limit, last);
    }

    /**
     * The server process among this JVM's descendants.
     *
     * @param command the end of its executable's path, e.g. {@code /bin/postgres}
     * @return the oldest matching process whose parent does not match (the postmaster, not a backend)
     */
    protected static Optional<ProcessHandle> serverProcess(String command) {
        return ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith(command)).orElse(false))
                .filter(p -> p.parent()
                        .flatMap(q -> q.info().command())
                        .map(c -> !c.endsWith(command))
                        .orElse(true))
                .findFirst();
    }

    @Override
    public abstract void close();
}
