package dev.baton.etcd.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real etcd server in a process of its own, on loopback ports, its data under {@code target/etcd}: one member of a
 * cluster of one or more. The binary is {@code BATON_TEST_ETCD_BIN} (environment) or {@code baton.test.etcd.bin}
 * (system property) or {@code etcd} on the {@code PATH} (Debian: {@code apt-get install etcd-server}); a missing one
 * fails the test, never skips it.
 */
public final class EtcdServer implements AutoCloseable {

    /** The members' heartbeat and election timeout: etcd's defaults, so the shortest lease is 2 s. */
    private static final int HEARTBEAT_MILLIS = 100;

    private static final int ELECTION_MILLIS = 1_000;

    private final String name;
    private final int clientPort;
    private final int peerPort;
    private final Path dataDir;
    private final String initialCluster;
    private final String clusterToken;
    private Process process;

    private EtcdServer(String name, int clientPort, int peerPort, Path dataDir, String initialCluster, String token) {
        this.name = name;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.dataDir = dataDir;
        this.initialCluster = initialCluster;
        this.clusterToken = token;
    }

    /**
     * Starts a cluster of {@code size} members and waits until each answers.
     *
     * @param label names the data folders
     * @param size how many members
     * @return the members
     */
    public static List<EtcdServer> startCluster(String label, int size) {
        String token = label + "-" + UUID.randomUUID();
        List<int[]> ports = new ArrayList<>();
        StringBuilder initial = new StringBuilder();
        for (int i = 0; i < size; i++) {
            int[] p = {freePort(), freePort()};
            ports.add(p);
            initial.append(i == 0 ? "" : ",")
                    .append(label)
                    .append(i)
                    .append("=http://127.0.0.1:")
                    .append(p[1]);
        }
        List<EtcdServer> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Path dir = directory(label + i);
            members.add(new EtcdServer(label + i, ports.get(i)[0], ports.get(i)[1], dir, initial.toString(), token));
        }
        members.forEach(EtcdServer::start);
        members.forEach(m -> m.awaitUp(30));
        return members;
    }

    /** Starts the process (again, on the same ports and data, after {@link #kill}). */
    public synchronized void start() {
        List<String> command = List.of(
                binary(),
                "--name",
                name,
                "--data-dir",
                dataDir.toString(),
                "--listen-client-urls",
                "http://127.0.0.1:" + clientPort,
                "--advertise-client-urls",
                "http://127.0.0.1:" + clientPort,
                "--listen-peer-urls",
                "http://127.0.0.1:" + peerPort,
                "--initial-advertise-peer-urls",
                "http://127.0.0.1:" + peerPort,
                "--initial-cluster",
                initialCluster,
                "--initial-cluster-token",
                clusterToken,
                "--initial-cluster-state",
                "new",
                "--heartbeat-interval",
                String.valueOf(HEARTBEAT_MILLIS),
                "--election-timeout",
                String.valueOf(ELECTION_MILLIS),
                "--logger",
                "zap",
                "--log-outputs",
                "stderr");
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dataDir.resolveSibling(name + ".log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start etcd (" + binary() + ")", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::kill));
    }

    /**
     * Waits until the member accepts connections on its client port.
     *
     * @param seconds how long at most
     */
    public void awaitUp(int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() - deadline < 0) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException("etcd " + name + " ended at start (exit " + process.exitValue()
                        + "); see " + dataDir.resolveSibling(name + ".log"));
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), clientPort)) {
                return;
            } catch (IOException e) {
                sleep(50);
            }
        }
        throw new IllegalStateException("etcd " + name + " did not listen on " + clientPort + " in " + seconds + " s");
    }

    /** @return the member's client URL */
    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
    }

    /** @return the member's client port */
    public int clientPort() {
        return clientPort;
    }

    /** @return the member's name */
    public String name() {
        return name;
    }

    /** Kills the process at once (SIGKILL): its data stays, {@link #start} brings it back. */
    public synchronized void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the member and deletes nothing (the data folder is under {@code target}). */
    @Override
    public void close() {
        kill();
    }

    /** @return the etcd binary to run */
    public static String binary() {
        String configured = Optional.ofNullable(System.getenv("BATON_TEST_ETCD_BIN"))
                .or(() -> Optional.ofNullable(System.getProperty("baton.test.etcd.bin")))
                .filter(s -> !s.isBlank())
                .orElse(null);
        if (configured != null) {
            if (!new File(configured).canExecute()) {
                throw new IllegalStateException("BATON_TEST_ETCD_BIN / baton.test.etcd.bin names " + configured
                        + ", which is not an executable file");
            }
            return configured;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(dir, "etcd");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        throw new IllegalStateException("the etcd store's tests need an etcd server binary and found none: install"
                + " one (Debian: apt-get install etcd-server) or set BATON_TEST_ETCD_BIN to its path");
    }

    private static Path directory(String name) {
        Path base = Path.of(System.getProperty("baton.test.etcd.dir", "target/etcd"));
        try {
            Path parent = Files.createDirectories(base.resolve(name + "-" + UUID.randomUUID()));
            return parent.resolve("data");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create an etcd data folder below " + base, e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
