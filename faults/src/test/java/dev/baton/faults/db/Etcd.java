package dev.baton.faults.db;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A private etcd server (one member) in a process of its own, on loopback ports, its data on disk (leases and keys
 * survive a restart, as on a production member). The binary is {@code BATON_TEST_ETCD_BIN} or {@code etcd} on the
 * {@code PATH} (Debian: {@code apt-get install etcd-server}); none fails the run. A crash-like stop is
 * {@code SIGKILL}, a clean one {@code SIGTERM}; a pause {@code SIGSTOP}. Heartbeat {@value #HEARTBEAT_MILLIS} ms and
 * election timeout {@value #ELECTION_MILLIS} ms, so it grants leases from 1 s.
 */
public final class Etcd implements Member {

    private static final int HEARTBEAT_MILLIS = 50;

    private static final int ELECTION_MILLIS = 500;

    private final Path dir;
    private final String name;
    private final int port;
    private final int peerPort;
    private final String initialCluster;
    private Process process;

    /**
     * Starts a fresh server.
     *
     * @param dir its data and log directory
     */
    public Etcd(Path dir) {
        this(dir, "faults", freePort(), freePort(), null);
        start();
    }

    /**
     * A member, not started ({@link EtcdCluster} starts them together).
     *
     * @param dir its data and log directory
     * @param name its name in the cluster
     * @param port its client port
     * @param peerPort its peer port
     * @param initialCluster the cluster's {@code name=peer URL} list, or null for a cluster of one
     */
    Etcd(Path dir, String name, int port, int peerPort, String initialCluster) {
        this.dir = dir.toAbsolutePath();
        this.name = name;
        this.port = port;
        this.peerPort = peerPort;
        this.initialCluster = initialCluster != null ? initialCluster : name + "=http://127.0.0.1:" + peerPort;
        try {
            Files.createDirectories(this.dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the etcd directory " + dir, e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "faults-etcd-stop"));
    }

    /** @return the member's peer port */
    int peerPort() {
        return peerPort;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port for etcd", e);
        }
    }

    @Override
    public int port() {
        return port;
    }

    /**
     * @param toPort the server's port, or a proxy's in front of it
     * @return the client URL
     */
    public static String endpoint(int toPort) {
        return "http://127.0.0.1:" + toPort;
    }

    /** Starts the process if it is not running, without waiting for it. */
    @Override
    public synchronized void launch() {
        if (process == null || !process.isAlive()) {
            String peer = "http://127.0.0.1:" + peerPort;
            try {
                process = new ProcessBuilder(List.of(
                                binary(),
                                "--name",
                                name,
                                "--data-dir",
                                dir.resolve("data").toString(),
                                "--listen-client-urls",
                                endpoint(port),
                                "--advertise-client-urls",
                                endpoint(port),
                                "--listen-peer-urls",
                                peer,
                                "--initial-advertise-peer-urls",
                                peer,
                                "--initial-cluster",
                                initialCluster,
                                "--heartbeat-interval",
                                String.valueOf(HEARTBEAT_MILLIS),
                                "--election-timeout",
                                String.valueOf(ELECTION_MILLIS),
                                "--logger",
                                "zap",
                                "--log-outputs",
                                "stderr"))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(
                                dir.resolve("etcd.log").toFile()))
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("etcd did not start on port " + port, e);
            }
        }
    }

    /** Waits until the member says it is healthy (it has a leader), 60 s at most. */
    @Override
    public synchronized void awaitReady() {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(endpoint(port) + "/health"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "etcd exited (code " + process.exitValue() + "); its log: " + dir.resolve("etcd.log"));
            }
            try {
                HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 && answer.body().contains("true")) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Processes.sleep(100);
        }
        throw new IllegalStateException("etcd on port " + port + " is not healthy", last);
    }

    /** @return the etcd binary: {@code BATON_TEST_ETCD_BIN}, else {@code etcd} on the {@code PATH} */
    static String binary() {
        Optional<String> configured =
                Optional.ofNullable(System.getenv("BATON_TEST_ETCD_BIN")).filter(s -> !s.isBlank());
        if (configured.isPresent()) {
            return configured.get();
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(d, "etcd");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        throw new IllegalStateException("the etcd entry of faults.stores needs an etcd server binary and found none:"
                + " install one (Debian: apt-get install etcd-server), set BATON_TEST_ETCD_BIN, or leave etcd out of"
                + " faults.stores");
    }

    @Override
    public synchronized void stop(boolean immediate) {
        if (process == null) {
            return;
        }
        if (immediate) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        Processes.awaitGone(process.toHandle(), 30_000);
        process = null;
    }

    @Override
    public synchronized void pause(boolean paused) {
        Processes.signal(process.pid(), paused ? "STOP" : "CONT");
    }

    @Override
    public String title() {
        return "etcd";
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            Processes.signal(process.pid(), "CONT");
            process.destroyForcibly();
            Processes.awaitGone(process.toHandle(), 30_000);
            process = null;
        }
    }
}
