package dev.baton.jpa.testing;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * An empty database of its own on the tests' PostgreSQL or MariaDB server (embedded, or the one the
 * environment names: the user then needs {@code CREATE DATABASE}), or a new H2 in memory: a migration
 * tool sees nothing but what it creates. {@link #close()} drops it.
 */
public final class FreshDatabase implements AutoCloseable {

    private static final AtomicInteger COUNT = new AtomicInteger();

    private final JpaDatabase database;
    private final String name;
    private final String url;
    private final Connection keepAlive;

    private FreshDatabase(JpaDatabase database, String name, String url, Connection keepAlive) {
        this.database = database;
        this.name = name;
        this.url = url;
        this.keepAlive = keepAlive;
    }

    /**
     * Creates one.
     *
     * @param database which kind
     * @param purpose a short word for its name
     * @return the new, empty database
     */
    public static FreshDatabase create(JpaDatabase database, String purpose) {
        String name = "bt_" + purpose + "_" + COUNT.incrementAndGet() + "_" + TestDatabases.runSuffix();
        String server = TestDatabases.url(database);
        try {
            return switch (database) {
                case POSTGRESQL -> {
                    run(server, "CREATE DATABASE " + name);
                    yield new FreshDatabase(
                            database, name, server.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + name), null);
                }
                case MARIADB -> {
                    run(server, "CREATE DATABASE " + name);
                    yield new FreshDatabase(
                            database, name, server.replaceFirst("^(jdbc:mariadb://[^/]+/)[^?]*", "$1" + name), null);
                }
                case H2 -> {
                    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
                    yield new FreshDatabase(database, name, url, DriverManager.getConnection(url));
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + " on " + database + " at " + server, e);
        }
    }

    /** @return the kind of database */
    public JpaDatabase database() {
        return database;
    }

    /** @return its JDBC URL (user in the URL) */
    public String url() {
        return url;
    }

    /**
     * A data source of the driver's own on it, for tools that want one (Flyway).
     *
     * @return a new data source
     */
    public DataSource dataSource() {
        try {
            return switch (database) {
                case POSTGRESQL -> {
                    PGSimpleDataSource ds = new PGSimpleDataSource();
                    ds.setURL(url);
                    yield ds;
                }
                case MARIADB -> new MariaDbDataSource(url);
                case H2 -> {
                    JdbcDataSource ds = new JdbcDataSource();
                    ds.setURL(url);
                    yield ds;
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException("bad URL " + url, e);
        }
    }

    /**
     * Runs statements on a plain JDBC connection to it.
     *
     * @param sql the statements
     */
    public void execute(String... sql) {
        try {
            run(url, sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens a plain JDBC connection to it.
     *
     * @return a connection in auto-commit mode; the caller closes it
     */
    public Connection connect() {
        try {
            return DriverManager.getConnection(url);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + url, e);
        }
    }

    @Override
    public void close() {
        try {
            switch (database) {
                case POSTGRESQL ->
                    run(TestDatabases.url(database), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                case MARIADB -> run(TestDatabases.url(database), "DROP DATABASE IF EXISTS " + name);
                case H2 -> {
                    try (Statement st = keepAlive.createStatement()) {
                        st.execute("SHUTDOWN");
                    }
                    keepAlive.close();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop database " + name + " on " + database, e);
        }
    }

    @Override
    public String toString() {
        return database + " database " + name;
    }

    private static void run(String url, String... sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }
}
