package dev.baton.redis.internal;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens the store's connections, to one Redis server or to a Redis Cluster, through a Lettuce client that
 * is the store's own (made from a URL, shut down with the store) or the application's (left open).
 * Keys and values travel as bytes ({@link ByteArrayCodec}), so keys stay byte-exact.
 */
public abstract class RedisConnector {

    private static final ByteArrayCodec CODEC = ByteArrayCodec.INSTANCE;

    /**
     * An open command connection.
     *
     * @param connection the connection, to close
     * @param commands its asynchronous commands (one server or the cluster)
     */
    public record Connection(
            StatefulConnection<byte[], byte[]> connection, RedisClusterAsyncCommands<byte[], byte[]> commands) {}

    private final boolean owned;
    private final String description;

    private RedisConnector(boolean owned, String description) {
        this.owned = owned;
        this.description = description;
    }

    /**
     * A client of the store's own for a URL, with Lettuce's timeouts set to the store's.
     *
     * @param uri the server (or, for a cluster, one of its nodes)
     * @param cluster whether it is a Redis Cluster
     * @param timeout how long connecting and a command may take at most
     * @return the connector
     */
    public static RedisConnector forUri(RedisURI uri, boolean cluster, Duration timeout) {
        RedisURI copy = RedisURI.builder(uri).withTimeout(timeout).build();
        SocketOptions socket =
                SocketOptions.builder().connectTimeout(timeout).keepAlive(true).build();
        // Commands still queued after the store's longest bound are failed by Lettuce itself, so a server
        // that stops answering does not pile them up.
        TimeoutOptions timeouts = TimeoutOptions.enabled(timeout);
        String description = describe(copy, cluster);
        if (cluster) {
            RedisClusterClient client = RedisClusterClient.create(copy);
            client.setOptions(ClusterClientOptions.builder()
                    .socketOptions(socket)
                    .timeoutOptions(timeouts)
                    .build());
            return new ClusterConnector(client, true, description);
        }
        RedisClient client = RedisClient.create();
        client.setOptions(ClientOptions.builder()
                .socketOptions(socket)
                .timeoutOptions(timeouts)
                .build());
        return new StandaloneConnector(client, copy, description);
    }

    /**
     * The application's client, used as it is configured and never shut down by the store.
     *
     * @param client a client created with the server's {@link RedisURI}
     * @return the connector
     */
    public static RedisConnector forClient(RedisClient client) {
        return new StandaloneConnector(client, null, "the application's RedisClient");
    }

    /**
     * The application's cluster client, used as it is configured and never shut down by the store.
     *
     * @param client the client
     * @return the connector
     */
    public static RedisConnector forClient(RedisClusterClient client) {
        return new ClusterConnector(client, false, "the application's RedisClusterClient");
    }

    /** @return whether the backend is a Redis Cluster (keys of one script call must share a slot) */
    public abstract boolean cluster();

    /** @return a connection for commands, once it is open */
    public abstract CompletableFuture<Connection> connect();

    /** @return a connection for subscriptions, once it is open */
    public abstract CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> connectPubSub();

    /** Shuts the client down if it is the store's own. */
    public final void shutdown() {
        if (owned) {
            shutdownClient();
        }
    }

    abstract void shutdownClient();

    /** @return where the store connects, without any password: for messages */
    @Override
    public final String toString() {
        return description;
    }

    /**
     * @param uri a Redis URI
     * @param cluster whether it names a cluster
     * @return scheme, host, port and database, without credentials
     */
    public static String describe(RedisURI uri, boolean cluster) {
        String scheme = uri.isSsl() ? "rediss" : "redis";
        String where = uri.getSocket() != null
                ? uri.getSocket()
                : uri.getHost() + ":" + uri.getPort() + (cluster ? " (cluster)" : "/" + uri.getDatabase());
        return scheme + "://" + where;
    }

    private static <T> CompletableFuture<T> synchronously(java.util.function.Supplier<T> connect) {
        try {
            return CompletableFuture.completedFuture(connect.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static final class StandaloneConnector extends RedisConnector {
        private final RedisClient client;
        private final RedisURI uri;

        StandaloneConnector(RedisClient client, RedisURI uri, String description) {
            super(uri != null, description);
            this.client = client;
            this.uri = uri;
        }

        @Override
        public boolean cluster() {
            return false;
        }

        @Override
        public CompletableFuture<Connection> connect() {
            if (uri == null) {
                // The application's client knows its server; Lettuce only connects to it synchronously.
                return synchronously(() -> client.connect(CODEC)).thenApply(c -> new Connection(c, c.async()));
            }
            return client.connectAsync(CODEC, uri).toCompletableFuture().thenApply(c -> new Connection(c, c.async()));
        }

        @Override
        public CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> connectPubSub() {
            if (uri == null) {
                return synchronously(() -> client.connectPubSub(CODEC));
            }
            return client.connectPubSubAsync(CODEC, uri).toCompletableFuture();
        }

        @Override
        void shutdownClient() {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    private static final class ClusterConnector extends RedisConnector {
        private final RedisClusterClient client;

        ClusterConnector(RedisClusterClient client, boolean owned, String description) {
            super(owned, description);
            this.client = client;
        }

        @Override
        public boolean cluster() {
            return true;
        }

        @Override
        public CompletableFuture<Connection> connect() {
            // Lettuce connects asynchronously only once it knows the cluster's slots: learn them first.
            return client.refreshPartitionsAsync()
                    .toCompletableFuture()
                    .thenCompose(v -> client.connectAsync(CODEC))
                    .thenApply(c -> new Connection(c, c.async()));
        }

        @Override
        public CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> connectPubSub() {
            return client.refreshPartitionsAsync()
                    .toCompletableFuture()
                    .thenCompose(v -> client.connectPubSubAsync(CODEC))
                    .thenApply(c -> c);
        }

        @Override
        void shutdownClient() {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
