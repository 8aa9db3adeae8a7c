package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Leadership;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Runs the packaged application ({@code target/quarkus-app/quarkus-run.jar}) as its own process on PostgreSQL,
 * takes a lock held for the application's life with a lease of ten minutes, whose holder takes 1.5 s to give it
 * back once told it is lost, waits until it leads the {@code @Leader} relay's election, stops the process with
 * SIGTERM, and reads the lock table: the lock and the leadership were released in the store by Baton's shutdown
 * (their expiry is in the past), not left to expire ten minutes later, and no release failed. Quarkus closes its
 * persistence unit as the application starts to stop; Baton stops first and waits for the holder there (when Baton
 * stopped as its bean was destroyed, the persistence unit was closed before the lock's release: {@code BATON-004}).
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
                // its holder takes 1.5 s to give it back once told: Quarkus's own shutdown goes on meanwhile
                assertThat(Http.post(app.uri("leases/" + key + "?finishMillis=1500"))
                                .statusCode())
                        .isEqualTo(200);
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                int relay;
                while ((relay = Http.get(app.uri("relay")).statusCode()) != 200 && System.nanoTime() < deadline) {
                    Thread.sleep(100); // 204 until the instance leads
                }
                assertThat(relay)
                        .as("the relay's method runs: this instance leads")
                        .isEqualTo(200);
                app.stop(); // SIGTERM: Quarkus stops the application
            }
            String leadership = Leadership.KEY_PREFIX + RelayResource.ELECTION;
            try (Connection connection = database.connect();
                    PreparedStatement query = connection.prepareStatement(
                            "SELECT expires_at <= CURRENT_TIMESTAMP FROM baton_locks WHERE lock_key = ?")) {
                for (String held : new String[] {key, leadership}) {
                    query.setString(1, held);
                    try (ResultSet rows = query.executeQuery()) {
                        assertThat(rows.next())
                                .as("%s's row; log %s", held, log)
                                .isTrue();
                        assertThat(rows.getBoolean(1))
                                .as("%s released at shutdown, not left to its 10-minute lease; log %s", held, log)
                                .isTrue();
                    }
                }
            }
            assertThat(Files.readString(log)).as("the application's log").doesNotContain("BATON-004");
        }
    }
}
