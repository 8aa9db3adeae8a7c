package dev.baton.redis.internal;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The settings of one {@code RedisLockStore}, as its builder hands them over: checked here, so no store is
 * built with a wrong one (the builder checks each value as it is set too, to fail at the call that set it).
 *
 * @param uri the server, or a node of the cluster, for a client of the store's own; null on the application's
 *     client
 * @param client the application's client, or null
 * @param clusterClient the application's cluster client, or null
 * @param cluster whether {@code uri} names a node of a Redis Cluster
 * @param keyPrefix the prefix of the store's Redis keys and of its channel
 * @param commandTimeout the bound of calls that come without one, and the longest of any call
 * @param allowEviction whether the store may run on a Redis whose {@code maxmemory-policy} evicts keys
 */
public record StoreSettings(
        RedisURI uri,
        RedisClient client,
        RedisClusterClient clusterClient,
        boolean cluster,
        String keyPrefix,
        Duration commandTimeout,
        boolean allowEviction) {

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if not exactly one of the server and the clients is given, or the key
     *     prefix or the command timeout is not valid
     * @throws IllegalStateException if {@code cluster} is set without a URI
     */
    public StoreSettings {
        int sources = (uri != null ? 1 : 0) + (client != null ? 1 : 0) + (clusterClient != null ? 1 : 0);
        if (sources != 1) {
            throw new IllegalArgumentException("a store needs one server URI or one client, was given " + sources);
        }
        if (cluster && uri == null) {
            throw new IllegalStateException(
                    "cluster(...) is for a store built from a URL; pass a RedisClusterClient instead");
        }
        RedisSettings.requireValidKeyPrefix(keyPrefix);
        commandTimeout = RedisSettings.requireValidCommandTimeout(commandTimeout);
    }

    /** @return the command timeout in milliseconds */
    public long commandTimeoutMillis() {
        return commandTimeout.toMillis();
    }

    /** @return the key prefix in UTF-8: the start of every Redis key of the store */
    public byte[] keyPrefixUtf8() {
        return keyPrefix.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the channel a release is published on: the key prefix, then {@code released} */
    public byte[] releaseChannel() {
        return (keyPrefix + "released").getBytes(StandardCharsets.UTF_8);
    }

    /** @return a new connector for the settings' server or client: the store makes one */
    public RedisConnector connector() {
        if (uri != null) {
            return RedisConnector.forUri(uri, cluster, commandTimeout);
        }
        return client != null ? RedisConnector.forClient(client) : RedisConnector.forClient(clusterClient);
    }
}
