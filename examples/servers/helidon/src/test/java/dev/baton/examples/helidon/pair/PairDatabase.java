package dev.baton.examples.helidon.pair;

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
 * The PostgreSQL database the two Helidon instances share, as the orders demo's {@code TwoInstancesDatabase}: a
 * fresh database on the server named by {@value #VARIABLE} when it is set (dropped afterwards), else an embedded
 * PostgreSQL under {@code target/}. A server that was asked for and cannot be reached fails the test.
 */
final class PairDatabase implements AutoCloseable {

    static final String VARIABLE = "BATON_TEST_POSTGRES_URL";

    private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/?]+/)([^?]*)(\\?.*)?$");

    private final String jdbcUrl;
    private final AutoCloseable cleanup;

    private PairDatabase(String jdbcUrl, AutoCloseable cleanup) {
        this.jdbcUrl = jdbcUrl;
        this.cleanup = cleanup;
    }

    static PairDatabase start(Path workDirectory) throws IOException {
        String server = System.getenv(VARIABLE);
        if (server == null || server.isBlank()) {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(
                            workDirectory.resolve("pg-work").toFile())
                    .setDataDirectory(workDirectory.resolve("pg-data"))
                    .setCleanDataDirectory(true)
                    .start();
            return new PairDatabase(
                    "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres?user=postgres", postgres);
        }
        String serverUrl = server.strip();
        Matcher url = URL.matcher(serverUrl);
        if (!url.matches()) {
            throw new IllegalStateException(
                    VARIABLE + "='" + serverUrl + "' is not a jdbc:postgresql://host:port/database URL");
        }
        String database =
                "baton_helidon_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute(serverUrl, "CREATE DATABASE " + database);
        String query = url.group(3) == null ? "" : url.group(3);
        return new PairDatabase(
                url.group(1) + database + query,
                () -> execute(serverUrl, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)"));
    }

    /** @return where both instances point */
    String jdbcUrl() {
        return jdbcUrl;
    }

    void execute(String sql) {
        execute(jdbcUrl, sql);
    }

    private static void execute(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + url + " could not be reached or refused: " + sql, e);
        }
    }

    @Override
    public void close() throws Exception {
        cleanup.close();
    }
}
