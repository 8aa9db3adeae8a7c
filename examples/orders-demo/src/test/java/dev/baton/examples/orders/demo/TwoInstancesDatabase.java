package dev.baton.examples.orders.demo;

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
 * The PostgreSQL database the two instances share: a fresh database on the server named by
 * {@value #VARIABLE} when it is set (dropped afterwards), else an embedded PostgreSQL under
 * {@code target/}. A server that was asked for and cannot be reached fails the test.
 */
final class TwoInstancesDatabase implements AutoCloseable {

    /** The same variable the JPA store's tests read. */
    static final String VARIABLE = "BATON_TEST_POSTGRES_URL";

    private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/?]+/)([^?]*)(\\?.*)?$");

    private final String jdbcUrl;
    private final AutoCloseable cleanup;

    private TwoInstancesDatabase(String jdbcUrl, AutoCloseable cleanup) {
        this.jdbcUrl = jdbcUrl;
        this.cleanup = cleanup;
    }

    static TwoInstancesDatabase start(Path workDirectory) throws IOException {
        String server = System.getenv(VARIABLE);
        return server == null || server.isBlank() ? embedded(workDirectory) : onServer(server.strip());
    }

    /** @return where both instances' data sources point */
    String jdbcUrl() {
        return jdbcUrl;
    }

    @Override
    public void close() throws Exception {
        cleanup.close();
    }

    private static TwoInstancesDatabase embedded(Path workDirectory) throws IOException {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(workDirectory.resolve("pg-work").toFile())
                .setDataDirectory(workDirectory.resolve("pg-data"))
                .setCleanDataDirectory(true)
                .start();
        return new TwoInstancesDatabase(
                "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres?user=postgres", postgres);
    }

    private static TwoInstancesDatabase onServer(String serverUrl) {
        Matcher url = URL.matcher(serverUrl);
        if (!url.matches()) {
            throw new IllegalStateException(
                    VARIABLE + "='" + serverUrl + "' is not a jdbc:postgresql://host:port/database URL");
        }
        String database =
                "baton_two_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(serverUrl);
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "The PostgreSQL server of " + VARIABLE + " (" + serverUrl
                            + ") could not be reached or refused CREATE DATABASE: " + e,
                    e);
        }
        String query = url.group(3) == null ? "" : url.group(3);
        return new TwoInstancesDatabase(url.group(1) + database + query, () -> {
            try (Connection c = DriverManager.getConnection(serverUrl);
                    Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            }
        });
    }
}
