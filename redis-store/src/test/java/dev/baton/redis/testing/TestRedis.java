package dev.baton.redis.testing;

import dev.baton.redis.RedisLockStore;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import redis.embedded.RedisServer;

/**
 * The Redis of the tests, started once per test JVM and shared by every test class: the server that
 * {@value #URL_VARIABLE} names (e.g. the machine's Redis 7, {@code redis://127.0.0.1:6379}), else an embedded
 * Redis 6.2 ({@code com.github.codemonstur:embedded-redis}) on a free loopback port, its data under
 * {@code target/embedded-redis}. A Redis that was asked for and cannot be reached fails the tests; it is never
 * skipped. Every test run uses a key prefix of its own, so runs against one server do not meet.
 */
public final class TestRedis {

    public static final String URL_VARIABLE = "BATON_TEST_REDIS_URL";

    /** This run's key prefix: stores of the tests use it (or prefixes below it). */
    public static final String RUN_PREFIX =
            "baton-test:" + UUID.randomUUID().toString().substring(0, 8) + ":";

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static String url;
    private static RuntimeException failure;

    private TestRedis() {}

    /** @return the URL of the running test Redis, starting it if needed */
    public static String url() {
        LOCK.lock();
        try {
            if (failure != null) {
                throw failure;
            }
            if (url == null) {
                try {
                    url = start();
                } catch (RuntimeException e) {
                    failure = e;
                    throw e;
                }
            }
            return url;
        } finally {
            LOCK.unlock();
        }
    }

    /** @return whether the tests run against a server named by {@value #URL_VARIABLE} */
    public static boolean external() {
        String value = System.getenv(URL_VARIABLE);
        return value != null && !value.isBlank();
    }

    /** @return a store on the test Redis under this run's prefix plus {@code name} */
    public static RedisLockStore store(String name) {
        return RedisLockStore.builder(url()).keyPrefix(RUN_PREFIX + name + ":").build();
    }

    private static String start() {
        if (external()) {
            String external = System.getenv(URL_VARIABLE).strip();
            String host = RedisURI.create(external).getHost();
            if (!host.equals("127.0.0.1") && !host.equals("localhost") && !host.equals("::1")) {
                throw new IllegalStateException(
                        URL_VARIABLE + "=" + external + ": the tests only use loopback servers");
            }
            ping(external, URL_VARIABLE + "=" + external);
            return external;
        }
        int port = FreePorts.pick();
        EmbeddedRedis server = EmbeddedRedis.start(port, "shared");
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "embedded-redis-stop"));
        String started = "redis://127.0.0.1:" + port;
        ping(started, "the embedded Redis on port " + port);
        return started;
    }

    /**
     * Fails unless the server answers PING.
     *
     * @param redisUrl the server
     * @param what how to name it in the failure
     */
    public static void ping(String redisUrl, String what) {
        RedisClient client = RedisClient.create(RedisURI.builder(RedisURI.create(redisUrl))
                .withTimeout(Duration.ofSeconds(5))
                .build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().ping();
        } catch (RuntimeException e) {
            throw new IllegalStateException("Redis is not reachable: " + what + " (" + e.getMessage() + ")", e);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
    /** An embedded Redis 6.2 server on a loopback port, with its data folder under target/. */
    public static final class EmbeddedRedis {
        private final RedisServer server;

        private EmbeddedRedis(RedisServer server) {
            this.server = server;
        }

        /**
         * Starts a server with an empty data set and no persistence (a restart loses everything).
         *
         * @param port the port
         * @param name its data folder's name
         * @return the running server
         */
        public static EmbeddedRedis start(int port, String name) {
            return start(port, name, new String[0]);
        }

        /**
         * Starts a server like {@link #start(int, String)}, with more settings.
         *
         * @param port the port
         * @param name its data folder's name
         * @param settings lines of {@code redis.conf}, e.g. {@code requirepass secret}
         * @return the running server
         */
        public static EmbeddedRedis start(int port, String name, String... settings) {
            try {
                Path dir = Path.of(
                                System.getProperty("baton.test.redis.dir", "target/embedded-redis"), name + "-" + port)
                        .toAbsolutePath();
                Files.createDirectories(dir);
                redis.embedded.core.RedisServerBuilder builder = RedisServer.newRedisServer()
                        .port(port)
                        .bind("127.0.0.1")
                        .setting("dir " + dir)
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .setting("maxmemory-policy noeviction");
                for (String setting : settings) {
                    builder.setting(setting);
                }
                RedisServer server = builder.build();
                server.start();
                return new EmbeddedRedis(server);
            } catch (IOException e) {
                throw new IllegalStateException(
                        "Could not start the embedded Redis on port " + port + ": " + e.getMessage(), e);
            }
        }

        /** Stops the server (its data is gone). */
        public void stop() {
            try {
                server.stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
