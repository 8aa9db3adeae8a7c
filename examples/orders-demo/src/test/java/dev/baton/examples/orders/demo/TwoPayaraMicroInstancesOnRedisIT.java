package dev.baton.examples.orders.demo;

import dev.baton.tck.runtime.launch.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import redis.embedded.RedisServer;

/**
 * {@link TwoInstancesScenario} on two Payara Micro 6 processes whose locks live in **Redis**
 * ({@code baton.store=redis}): the WAR gets the Redis store and its client in {@code WEB-INF/lib}, both
 * servers get {@code baton.store=redis} and {@code baton.redis.url} as system properties (over the WAR's
 * {@code baton.store=jpa}); the orders stay in PostgreSQL. Redis is an embedded Redis 6.2 on a free loopback
 * port, or the server named by {@code BATON_TEST_REDIS_URL}.
 */
class TwoPayaraMicroInstancesOnRedisIT extends TwoPayaraMicroInstancesIT {

    private String redisUrl;

    @Override
    Path prepare(Path war, Path directory) throws Exception {
        String server = System.getenv("BATON_TEST_REDIS_URL");
        if (server != null && !server.isBlank()) {
            redisUrl = server.strip();
        } else {
            int port = FreePorts.pick();
            Path data = Files.createDirectories(directory.resolve("redis"));
            RedisServer redis = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("dir " + data)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .setting("maxmemory-policy noeviction")
                    .build();
            redis.start();
            stopAfterTheInstances(redis::stop);
            redisUrl = "redis://127.0.0.1:" + port;
        }
        return withLibraries(
                war, Path.of(required("baton.demo.redisLibraries")), directory.resolve("orders-redis.war"));
    }

    @Override
    Map<String, String> configuration() {
        Map<String, String> configuration = new HashMap<>(super.configuration());
        configuration.put("baton.store", "redis");
        configuration.put("baton.redis.url", redisUrl);
        // a key prefix of this run's own, so a shared Redis keeps runs apart
        configuration.put(
                "baton.redis.key-prefix", "baton-two-" + ProcessHandle.current().pid() + ":");
        return configuration;
    }

    @Override
    boolean locksInTheWarsDatabase() {
        return false;
    }

    /** The WAR with every jar of {@code libraries} added to {@code WEB-INF/lib}. */
    private static Path withLibraries(Path war, Path libraries, Path target) throws IOException {
        List<Path> jars;
        try (Stream<Path> files = Files.list(libraries)) {
            jars = files.filter(file -> file.toString().endsWith(".jar"))
                    .sorted()
                    .toList();
        }
        if (jars.stream().noneMatch(jar -> jar.getFileName().toString().startsWith("baton-redis-store"))) {
            throw new IllegalStateException(libraries + " holds no baton-redis-store jar (copied by the build)");
        }
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
            for (Path jar : jars) {
                out.putNextEntry(new ZipEntry("WEB-INF/lib/" + jar.getFileName()));
                try (InputStream bytes = Files.newInputStream(jar)) {
                    bytes.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return target;
    }
}
