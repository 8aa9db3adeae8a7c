package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.runtime.launch.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs the packaged application ({@code target/quarkus-app/quarkus-run.jar}) as its own process on a file
 * database, takes a lock held for the application's life with a lease of ten minutes, stops the process
 * with SIGTERM, and reads the lock table: the lock was released in the store by Baton's shutdown (its
 * expiry is in the past), not left to expire ten minutes later.
 */
class ReleaseAtShutdownIT {

    private static final Path TARGET = Path.of("target").toAbsolutePath();

    @Test
    void aLockHeldAtShutdownIsReleasedInTheDatabase() throws Exception {
        Path database = TARGET.resolve("shutdown-" + UUID.randomUUID()).resolve("baton");
        // H2 must not close the database in its own shutdown hook, before Quarkus has stopped the application.
        String url = "jdbc:h2:file:" + database + ";DB_CLOSE_ON_EXIT=FALSE";
        int port = FreePorts.pick();
        String key = "shutdown:" + UUID.randomUUID();
        Path log = Files.createTempFile(TARGET, "quarkus-run-", ".log");
        Process app = new ProcessBuilder(List.of(
                        java(),
                        "-Dquarkus.http.port=" + port,
                        "-Dquarkus.http.host=127.0.0.1",
                        "-Dquarkus.datasource.jdbc.url=" + url,
                        "-Dquarkus.datasource.username=sa",
                        "-Dbaton.ttl=10m",
                        "-jar",
                        TARGET.resolve("quarkus-app/quarkus-run.jar").toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            URI base = URI.create("http://127.0.0.1:" + port + "/");
            awaitUp(base, app, log);
            assertThat(Http.post(base.resolve("leases/" + key)).statusCode()).isEqualTo(200);
        } finally {
            app.destroy(); // SIGTERM: Quarkus stops the application
            assertThat(app.waitFor(60, TimeUnit.SECONDS))
                    .as("stopped within 60 s; log %s", log)
                    .isTrue();
        }
        // The database file was the application's: it is read only now that the process has ended.
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
                PreparedStatement query = connection.prepareStatement(
                        "SELECT expires_at <= CURRENT_TIMESTAMP FROM baton_locks WHERE lock_key = ?")) {
            query.setString(1, key);
            try (ResultSet rows = query.executeQuery()) {
                assertThat(rows.next()).as("the lock's row; log %s", log).isTrue();
                assertThat(rows.getBoolean(1))
                        .as("released at shutdown, not left to its 10-minute lease; log %s", log)
                        .isTrue();
            }
        }
    }

    private static void awaitUp(URI base, Process app, Path log) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            assertThat(app.isAlive())
                    .as("the application runs; log:%n%s", Files.readString(log))
                    .isTrue();
            try {
                if (Http.get(base.resolve("seats/probe")).statusCode() == 200) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the application did not answer within 90 s; log:\n" + Files.readString(log));
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    static {
        try {
            Class.forName("org.h2.Driver");
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
