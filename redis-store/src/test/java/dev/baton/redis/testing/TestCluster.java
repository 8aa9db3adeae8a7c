package dev.baton.redis.testing;

import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import redis.embedded.RedisServer;

/**
 * A Redis Cluster of three masters on loopback ports, started from the Redis 6.2 binary that embedded-redis
 * ships, in cluster mode, each with its data folder under {@code target/embedded-redis}. The slots are split
 * in three ({@code CLUSTER ADDSLOTS}) and the nodes introduced to each other ({@code CLUSTER MEET}), as
 * {@code redis-cli --cluster create} would do without replicas.
 */
public final class TestCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    private static final int MASTERS = 3;

    private final List<RedisServer> servers = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();

    private TestCluster() {}

    /** @return a running cluster whose every slot is served */
    public static TestCluster start() {
        TestCluster cluster = new TestCluster();
        try {
            for (int i = 0; i < MASTERS; i++) {
                int port = FreePorts.pick();
                Path dir = Path.of(
                                System.getProperty("baton.test.redis.dir", "target/embedded-redis"), "cluster-" + port)
                        .toAbsolutePath();
                Files.createDirectories(dir);
                RedisServer server = RedisServer.newRedisServer()
                        .port(port)
                        .bind("127.0.0.1")
                        .setting("dir " + dir)
                        .setting("cluster-enabled yes")
                        .setting("cluster-config-file nodes-" + port + ".conf")
                        .setting("cluster-node-timeout 5000")
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .build();
                server.start();
                cluster.servers.add(server);
                cluster.ports.add(port);
            }
            cluster.form();
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw new IllegalStateException("Could not start the test Redis Cluster: " + e.getMessage(), e);
        }
    }

    /** @return the URL of one node, from which a cluster client finds the others */
    public String seedUrl() {
        return "redis://127.0.0.1:" + ports.get(0);
    }

    /** @return the ports of the three primaries, the seed's first */
    public List<Integer> ports() {
        return List.copyOf(ports);
    }

    private void form() {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int i = 0; i < MASTERS; i++) {
            int from = i * SLOTS / MASTERS;
            int to = (i + 1) * SLOTS / MASTERS;
            int index = i;
            onNode(ports.get(i), redis -> {
                redis.clusterAddSlots(IntStream.range(from, to).toArray());
                if (index > 0) {
                    redis.clusterMeet("127.0.0.1", ports.get(0));
                }
                return null;
            });
        }
        for (int port : ports) {
            while (!onNode(
                    port,
                    redis -> redis.clusterInfo().contains("cluster_state:ok")
                            && redis.clusterNodes()
                                            .lines()
                                            .filter(line -> line.contains("master"))
                                            .count()
                                    == MASTERS)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "the cluster did not reach cluster_state:ok within 30 s (node " + port + ")");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private static <T> T onNode(int port, java.util.function.Function<RedisCommands<String, String>, T> work) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return work.apply(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Override
    public void close() {
        for (RedisServer server : servers) {
            try {
                server.stop();
            } catch (IOException | RuntimeException e) {
                // the others still stop
            }
        }
        servers.clear();
    }
}
