package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Runs the packaged application ({@code target/quarkus-app/quarkus-run.jar}) as its own process on PostgreSQL,
 * takes a lock held for the application's life with a lease of ten minutes, stops the process with SIGTERM,
 * and reads the lock table: the lock was released in the store by Baton's shutdown (its expiry is in the past),
 * not left to expire ten minutes later.
 */
class ReleaseAtShutdownIT {

    @Test
    void aLockHeldAtShutdownIsReleasedInTheDatabase() throws Exception {
        String key = "shutdown:" + UUID.randomUUID();
        try (TestDatabase database = TestDatabase.start("shutdown")) {
            Path log;
            try (AppProcess app = AppProcess.start("shutdown", database, "-Dbaton.ttl=10m")) {
                log = app.log();
                app.awaitUp();
                assertThat(Http.post(app.uri("leases/" + key)).statusCode()).isEqualTo(200);
                app.stop(); // SIGTERM: Quarkus stops the application
            }
            try (Connection connection = database.connect();
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
    }
}
