package dev.baton.redis.internal;

import dev.baton.LockStoreException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The store's subscription to its release channel ({@code <key-prefix>released}, on which the release and
 * leave-turn scripts publish the record's Redis key): one pub/sub connection for all the store's listeners,
 * opened by the first one. When Redis cannot be reached, the listener is still registered and the subscription is
 * tried again at the store's next call ({@link #retryIfFailed}); meanwhile waiters poll. Lettuce subscribes again by
 * itself after a reconnect.
 */
public final class ReleaseSubscription {

    private static final System.Logger LOG = System.getLogger(RedisMessage.LOGGER);

    private final RedisConnector connector;
    private final StoreConnection connection;
    private final byte[] prefix;
    private final byte[] channel;
    private final long commandTimeoutMillis;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    /** Guards opening and closing; the field it writes is read without it on every call. */
    private final ReentrantLock setup = new ReentrantLock();

    private volatile CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> subscription;

    /**
     * @param connector opens the pub/sub connection
     * @param connection the store's connection: subscribing is refused once it is closed
     * @param settings the key prefix, the channel, and how long to wait for the subscription
     */
    public ReleaseSubscription(RedisConnector connector, StoreConnection connection, StoreSettings settings) {
        this.connector = connector;
        this.connection = connection;
        this.prefix = settings.keyPrefixUtf8();
        this.channel = settings.releaseChannel();
        this.commandTimeoutMillis = settings.commandTimeoutMillis();
    }

    /**
     * Registers a listener and waits for the subscription at most the command timeout; one that is not in place
     * by then is only logged ({@code BATON-REDIS-002}).
     *
     * @param listener told the key of each release
     * @return unregisters the listener
     * @throws LockStoreException if the store is closed
     */
    public AutoCloseable add(Consumer<String> listener) {
        connection.requireOpen();
        listeners.add(listener);
        long deadline = StoreConnection.deadline(commandTimeoutMillis);
        try {
            connection.await(subscribe(), deadline, "subscribing to " + new String(channel, StandardCharsets.UTF_8));
        } catch (LockStoreException e) {
            RedisMessage.NOT_SUBSCRIBED.logWithCause(LOG, e, e.getMessage());
        }
        return () -> listeners.remove(listener);
    }

    /** Subscribes again, without waiting, if there are listeners and the subscription failed. */
    public void retryIfFailed() {
        CompletableFuture<?> subscribed = subscription;
        if (!listeners.isEmpty() && (subscribed == null || subscribed.isCompletedExceptionally())) {
            subscribe();
        }
    }

    /** @return the subscription, started if it is not there (or failed before) */
    private CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> subscribe() {
        setup.lock();
        try {
            connection.requireOpen(); // under the lock: close() takes the subscription after the store is closed
            if (subscription == null || subscription.isCompletedExceptionally()) {
                subscription = connector.connectPubSub().thenCompose(pubSub -> {
                    pubSub.addListener(new RedisPubSubAdapter<>() {
                        @Override
                        public void message(byte[] from, byte[] message) {
                            released(message);
                        }
                    });
                    CompletableFuture<Void> subscribed =
                            pubSub.async().subscribe(channel).toCompletableFuture();
                    return subscribed
                            .whenComplete((ok, failure) -> {
                                if (failure != null) {
                                    pubSub.closeAsync(); // the next attempt opens a new one
                                }
                            })
                            .thenApply(v -> pubSub);
                });
            }
            return subscription;
        } finally {
            setup.unlock();
        }
    }

    private void released(byte[] message) {
        if (message.length <= prefix.length || !Arrays.equals(message, 0, prefix.length, prefix, 0, prefix.length)) {
            return;
        }
        String key = new String(message, prefix.length, message.length - prefix.length, StandardCharsets.UTF_8);
        for (Consumer<String> listener : listeners) {
            try {
                listener.accept(key);
            } catch (RuntimeException e) {
                RedisMessage.LISTENER_FAILED.logWithCause(LOG, e);
            }
        }
    }

    /** Drops the listeners and closes the subscription; call it once the {@link StoreConnection} is closed. */
    public void close() {
        CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> pubSub;
        setup.lock();
        try {
            pubSub = subscription;
            subscription = null;
        } finally {
            setup.unlock();
        }
        listeners.clear();
        if (pubSub != null) {
            StoreConnection.closeQuietly(pubSub);
        }
    }
}
