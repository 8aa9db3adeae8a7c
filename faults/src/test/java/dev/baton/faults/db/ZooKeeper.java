package dev.baton.faults.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A private ZooKeeper 3.9 server ({@code ZooKeeperServerMain}) in a JVM of its own, on a loopback port, its data on
 * disk (sessions and nodes survive a restart, as on a production server). A crash-like stop is {@code SIGKILL} of
 * that JVM, a clean one {@code SIGTERM}; a pause {@code SIGSTOP}. Its tick is {@value #TICK_MILLIS} ms, so it grants
 * session timeouts from 1 to 10 s.
 */
public final class ZooKeeper implements Member {

    /** The server's tick. */
    public static final int TICK_MILLIS = 500;

    private final Path dir;
    private final int port;
    /** The main class: the standalone server, or a member of an ensemble. */
    private final String main;

    private Process process;

    /**
     * Starts a fresh server.
     *
     * @param dir its data and log directory
     */
    public ZooKeeper(Path dir) {
        this.dir = dir.toAbsolutePath();
        this.port = freePort();
        this.main = "org.apache.zookeeper.server.ZooKeeperServerMain";
        writeConfig(List.of());
        start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "faults-zookeeper-stop"));
    }

    /**
     * A member of an ensemble, not started: {@link ZooKeeperEnsemble} starts them together.
     *
     * @param dir its data and log directory
     * @param port its client port
     * @param myId its id in the ensemble
     * @param servers the ensemble's {@code server.N=...} lines
     */
    ZooKeeper(Path dir, int port, int myId, List<String> servers) {
        this.dir = dir.toAbsolutePath();
        this.port = port;
        this.main = "org.apache.zookeeper.server.quorum.QuorumPeerMain";
        writeConfig(servers);
        try {
            Files.writeString(this.dir.resolve("data").resolve("myid"), String.valueOf(myId));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the member's id in " + dir, e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "faults-zookeeper-stop"));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port for ZooKeeper", e);
        }
    }

    private void writeConfig(List<String> servers) {
        try {
            Files.createDirectories(dir.resolve("data"));
            List<String> lines = new java.util.ArrayList<>(List.of(
                    "tickTime=" + TICK_MILLIS,
                    "dataDir=" + dir.resolve("data"),
                    "clientPortAddress=127.0.0.1",
                    "clientPort=" + port,
                    "admin.enableServer=false",
                    "4lw.commands.whitelist=",
                    "maxClientCnxns=0"));
            if (!servers.isEmpty()) {
                lines.addAll(List.of("initLimit=10", "syncLimit=5"));
                lines.addAll(servers);
            }
            lines.add("");
            Files.writeString(dir.resolve("zoo.cfg"), String.join("\n", lines));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ZooKeeper configuration in " + dir, e);
        }
    }

    @Override
    public int port() {
        return port;
    }

    /**
     * @param toPort the server's port, or a proxy's in front of it
     * @return the connect string
     */
    public static String connect(int toPort) {
        return "127.0.0.1:" + toPort;
    }

    /** Starts the process if it is not running, without waiting for it to answer. */
    @Override
    public synchronized void launch() {
        if (process == null || !process.isAlive()) {
            try {
                process = new ProcessBuilder(List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "-Xmx256m",
                                "-cp",
                                System.getProperty("java.class.path"),
                                main,
                                dir.resolve("zoo.cfg").toString()))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(
                                dir.resolve("zookeeper.log").toFile()))
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("the ZooKeeper server did not start on port " + port, e);
            }
        }
    }

    /** Waits until a client connects and reads a node, 60 s at most. */
    @Override
    public synchronized void awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the ZooKeeper server exited (code " + process.exitValue()
                        + "); its log: " + dir.resolve("zookeeper.log"));
            }
            CompletableFuture<Integer> answer = new CompletableFuture<>();
            try {
                Client client = new Client(connect(port));
                try {
                    client.zk.exists("/", false, (rc, path, ctx, stat) -> answer.complete(rc), null);
                    if (answer.get(2, TimeUnit.SECONDS) == 0) {
                        return;
                    }
                } finally {
                    client.zk.close();
                }
            } catch (Exception e) {
                last = e;
            }
            Processes.sleep(100);
        }
        throw new IllegalStateException("ZooKeeper on port " + port + " does not answer", last);
    }

    /** A throwaway client, to see that the server answers. */
    private static final class Client {
        final org.apache.zookeeper.ZooKeeper zk;

        Client(String connect) throws IOException {
            zk = new org.apache.zookeeper.ZooKeeper(connect, 10_000, event -> {});
        }
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
        return "ZooKeeper";
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            Processes.signal(process.pid(), "CONT"); // a paused JVM would not act on SIGKILL's cleanup otherwise
            process.destroyForcibly();
            Processes.awaitGone(process.toHandle(), 30_000);
            process = null;
        }
    }
}
