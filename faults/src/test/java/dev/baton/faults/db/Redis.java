package dev.baton.faults.db;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import redis.embedded.RedisServer;

/**
 * A private Redis 6.2 ({@code com.github.codemonstur:embedded-redis}) on a loopback port, without persistence:
 * a restart comes back empty. A crash-like stop is {@code SIGKILL} of {@code redis-server}; a pause
 * {@code SIGSTOP}.
 */
public final class Redis implements Server {

    private final Path dir;
    private final int port;
    private RedisServer server;
    private ProcessHandle process;

    /**
     * Starts a fresh server.
     *
     * @param dir its working directory
     */
    public Redis(Path dir) {
        this.dir = dir.toAbsolutePath();
        this.port = freePort();
        start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "faults-redis-stop"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port for Redis", e);
        }
    }

    @Override
    public int port() {
        return port;
    }

    /** @return the URL of the server, or of a proxy in front of it */
    public static String url(int toPort) {
        return "redis://127.0.0.1:" + toPort;
    }

    @Override
    public synchronized void start() {
        if (server == null) {
            try {
                Files.createDirectories(dir);
                server = RedisServer.newRedisServer()
                        .port(port)
                        .bind("127.0.0.1")
                        .setting("dir " + dir)
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .setting("maxmemory-policy noeviction")
                        .build();
                server.start();
            } catch (IOException e) {
                throw new IllegalStateException("the embedded Redis did not start on port " + port + ": " + e, e);
            }
            process = ProcessHandle.current()
                    .descendants()
                    .filter(p -> p.info()
                            .command()
                            .map(c -> c.contains("redis-server"))
                            .orElse(false))
                    .filter(ProcessHandle::isAlive)
                    .reduce((a, b) -> b) // the newest
                    .orElseThrow(() -> new IllegalStateException("no redis-server process among this JVM's children"));
        }
        call(c -> c.sync().ping());
    }

    @Override
    public synchronized void stop(boolean immediate) {
        if (server == null) {
            return;
        }
        if (immediate) {
            Processes.signal(process.pid(), "KILL");
            Processes.awaitGone(process, 10_000);
        }
        try {
            server.stop(); // after a SIGKILL only its bookkeeping
        } catch (IOException | RuntimeException e) {
            // already gone
        }
        server = null;
    }

    @Override
    public synchronized void pause(boolean paused) {
        Processes.signal(process.pid(), paused ? "STOP" : "CONT");
    }

    @Override
    public String title() {
        return "Redis";
    }

    /**
     * The connections of clients subscribed to a channel, by the client's port (through a proxy: the proxy's
     * upstream port).
     *
     * @return their ports
     */
    public List<Integer> subscriberPorts() {
        String clients = call(c -> c.sync().clientList());
        List<Integer> ports = new ArrayList<>();
        for (String line : clients.split("\n")) {
            if (line.contains(" sub=0 psub=0") || !line.contains(" sub=")) {
                continue;
            }
            for (String field : line.split(" ")) {
                if (field.startsWith("addr=")) {
                    String addr = field.substring(5);
                    ports.add(Integer.parseInt(addr.substring(addr.lastIndexOf(':') + 1)));
                }
            }
        }
        return ports;
    }

    private <T> T call(Function<StatefulRedisConnection<String, String>, T> work) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            RedisClient client = RedisClient.create(RedisURI.builder(RedisURI.create(url(port)))
                    .withTimeout(Duration.ofSeconds(5))
                    .build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                return work.apply(connection);
            } catch (RuntimeException e) {
                last = e;
                Processes.sleep(100);
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
        throw new IllegalStateException("Redis on port " + port + " does not answer", last);
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            if (process != null) {
                Processes.signal(process.pid(), "CONT");
            }
            stop(false);
        }
    }
}
