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
public abstract class Database implements AutoCloseable {

    /** @return which database */
    public abstract JpaDatabase kind();

    /** @return the port it listens on, the same across restarts */
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

    /**
     * Stops the server.
     *
     * @param immediate as a crash would (no checkpoint, connections cut) rather than a clean shutdown
     */
    public abstract void stop(boolean immediate);

    /** Starts the server again on the same port and data, and waits until it accepts connections. */
    public abstract void start();

    /** @return the database's name in reports */
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
