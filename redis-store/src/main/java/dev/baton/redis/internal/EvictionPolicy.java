package dev.baton.redis.internal;

import dev.baton.LockConfigurationException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The check of Redis' {@code maxmemory-policy} when the store connects. Any policy but {@code noeviction}
 * lets a full Redis drop keys, a held lock's record among them, after which another owner takes the key
 * while the first one's lease runs; under {@code volatile-*} the lock records go first, since they are the
 * keys with an expiry. The policy is read with {@code CONFIG GET maxmemory-policy}, or, where {@code CONFIG}
 * is renamed away or not permitted (managed Redis), from {@code INFO memory} ({@code maxmemory_policy}); on
 * a cluster from every primary the client knows.
 */
public final class EvictionPolicy {

    /** The one policy under which Redis never drops a key to make room. */
    public static final String NO_EVICTION = "noeviction";

    private static final System.Logger LOG = System.getLogger(RedisMessage.LOGGER);
    private static final String INFO_FIELD = "maxmemory_policy:";

    /**
     * What one server said.
     *
     * @param server where it is, for messages
     * @param policy its policy, or null when neither {@code CONFIG} nor {@code INFO} told it
     */
    record Finding(String server, String policy) {
        boolean evicting() {
            return policy != null && !policy.equals(NO_EVICTION);
        }
    }

    private EvictionPolicy() {}

    /**
     * Reads the policy of the connection's server (of every primary, on a cluster).
     *
     * @param connection the store's connection, just opened
     * @param server where it connects, for messages
     * @param allowEviction whether the operator accepts an evicting policy (then it is only a warning)
     * @return completes when the store may use the connection; fails with a {@link LockConfigurationException}
     *     naming the policy and the fix when a server evicts and that was not allowed, or with the failure
     *     of a server that did not answer
     */
    public static CompletableFuture<Void> check(
            RedisConnector.Connection connection, String server, boolean allowEviction) {
        return findings(connection, server).thenAccept(findings -> judge(findings, allowEviction));
    }

    private static CompletableFuture<List<Finding>> findings(RedisConnector.Connection connection, String server) {
        if (!(connection.connection() instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster)) {
            return read(connection.commands()).thenApply(policy -> List.of(new Finding(server, policy)));
        }
        List<CompletableFuture<Finding>> nodes = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                String name = node.getUri().getHost() + ":" + node.getUri().getPort() + " (cluster primary)";
                nodes.add(cluster.getConnectionAsync(node.getNodeId())
                        .thenCompose(c -> read(c.async()))
                        .thenApply(policy -> new Finding(name, policy)));
            }
        }
        return CompletableFuture.allOf(nodes.toArray(CompletableFuture[]::new))
                .thenApply(v -> nodes.stream().map(CompletableFuture::join).toList());
    }

    /** @return the server's policy, or null when it answers neither CONFIG GET nor INFO with one */
    private static CompletableFuture<String> read(RedisClusterAsyncCommands<byte[], byte[]> commands) {
        return commands.configGet("maxmemory-policy")
                .toCompletableFuture()
                .thenApply(answer -> answer.get("maxmemory-policy"))
                .exceptionally(whenRefused(null))
                .thenCompose(policy -> policy != null
                        ? CompletableFuture.completedFuture(policy)
                        : commands.info("memory")
                                .toCompletableFuture()
                                .thenApply(EvictionPolicy::fromInfo)
                                .exceptionally(whenRefused(null)));
    }

    /**
     * A command the server refuses (unknown because renamed, {@code NOPERM}) leaves the question open; a server
     * that does not answer fails the check like any connection failure.
     */
    private static <T> Function<Throwable, T> whenRefused(T open) {
        return failure -> {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof RedisCommandExecutionException) {
                return open;
            }
            throw failure instanceof CompletionException c ? c : new CompletionException(failure);
        };
    }

    static String fromInfo(String info) {
        return info.lines()
                .filter(line -> line.startsWith(INFO_FIELD))
                .map(line -> line.substring(INFO_FIELD.length()).strip())
                .filter(policy -> !policy.isEmpty())
                .findFirst()
                .orElse(null);
    }

    private static void judge(List<Finding> findings, boolean allowEviction) {
        List<Finding> evicting = findings.stream().filter(Finding::evicting).toList();
        if (!evicting.isEmpty() && !allowEviction) {
            throw new LockConfigurationException("Redis " + describe(evicting) + ", which lets a full Redis evict"
                    + " keys: a held lock's record can be dropped and the key taken by another owner during the"
                    + " holder's lease"
                    + (anyVolatile(evicting)
                            ? " (under volatile-* the lock records go first: they are the keys with an expiry)"
                            : "")
                    + ". Run Redis with maxmemory-policy noeviction (redis.conf, or CONFIG SET maxmemory-policy"
                    + " noeviction), or set baton.redis.allow-eviction=true (baton.<manager>.redis.allow-eviction"
                    + " for a named manager's store, RedisLockStore.Builder.allowEviction(true) in code) to accept"
                    + " that locks may be lost to eviction");
        }
        if (!evicting.isEmpty()) {
            RedisMessage.EVICTION_ALLOWED.log(LOG, describe(evicting));
        }
        List<String> unknown = findings.stream()
                .filter(f -> f.policy() == null)
                .map(Finding::server)
                .toList();
        if (!unknown.isEmpty()) {
            RedisMessage.POLICY_UNKNOWN.log(LOG, String.join(", ", unknown));
        }
    }

    private static String describe(List<Finding> evicting) {
        Map<String, List<String>> byPolicy = evicting.stream()
                .collect(Collectors.groupingBy(
                        Finding::policy,
                        java.util.TreeMap::new,
                        Collectors.mapping(Finding::server, Collectors.toList())));
        return byPolicy.entrySet().stream()
                .map(e -> String.join(", ", e.getValue()) + " runs with maxmemory-policy " + e.getKey())
                .collect(Collectors.joining("; "));
    }

    private static boolean anyVolatile(List<Finding> evicting) {
        return evicting.stream().anyMatch(f -> f.policy().startsWith("volatile-"));
    }
}
