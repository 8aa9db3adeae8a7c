package dev.baton.redis;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreException;
import dev.baton.redis.internal.EvictionPolicy;
import dev.baton.redis.internal.RedisConnector;
import dev.baton.redis.internal.RedisMessage;
import dev.baton.redis.internal.RedisSettings;
import dev.baton.redis.internal.Scripts;
import dev.baton.redis.internal.Scripts.Script;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The Redis lock store: one hash per key, written by one Lua script per operation, timed by the Redis
 * server's clock ({@code TIME}), on a single server or a Redis Cluster, through the Lettuce client.
 *
 * <ul>
 * <li><b>Atomic</b>: each operation is one script ({@code EVALSHA}, sent again as {@code EVAL} when the
 * server answers {@code NOSCRIPT}, e.g. after a restart), so check and write cannot interleave with
 * another caller's. Every script touches one key, except the batch renewal, which the store sends once
 * per cluster slot.</li>
 * <li><b>Fencing tokens</b> are {@code max(last token of the key + 1, Redis TIME in microseconds)}: they
 * grow with each acquisition and never go back, also when Redis restarts empty or fails over to a replica
 * that missed the last writes, as long as the server clock is not set back (see docs/internals.md).</li>
 * <li><b>Release notification</b>: a release publishes the key on the channel
 * {@code <key-prefix>released}; the store keeps one subscription for all its listeners.</li>
 * <li><b>Waiting turns</b> live in the key's hash beside the lock.</li>
 * <li><b>Bounded calls</b>: Redis never makes a script wait for another caller's lock, so a call's bound
 * only limits how long the store waits for the answer: its {@code maxWaitMillis}, but at least
 * {@value #MIN_ANSWER_MILLIS} ms (a healthy server's answer must fit) and at most the
 * {@linkplain Builder#commandTimeout command timeout}, which also bounds calls without a bound of their own.
 * A server that does not answer in time fails the call with a {@link LockStoreException}.</li>
 * </ul>
 * The store connects lazily, at its first operation; Lettuce reconnects by itself after a failure.
 * Connecting includes reading the server's {@code maxmemory-policy}: one that evicts keys is refused (see
 * {@link Builder#allowEviction}).
 * Create one with {@link #builder(String)} (or from a client of the application), or let
 * {@code baton.store=redis} create it from configuration.
 */
public final class RedisLockStore implements LockStore {

    /** The command timeout when none is set. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

    /** The prefix of the store's Redis keys (and of its channel) when none is set. */
    public static final String DEFAULT_KEY_PREFIX = "baton:";

    /** The shortest time a bounded call waits for Redis' answer, in milliseconds. */
    public static final long MIN_ANSWER_MILLIS = 250;

    /** A batch renewal sends at most this many keys per script, so one script never runs long. */
    static final int RENEW_CHUNK = 500;

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.RELEASE_NOTIFICATION,
            StoreCapability.WAITING_TURNS,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.INSPECT);

    private static final System.Logger LOG = System.getLogger(RedisLockStore.class.getName());
    private static final byte[] NO_WAITER = new byte[0];

    private final RedisConnector connector;
    private final byte[] prefix;
    private final byte[] channel;
    private final long commandTimeoutMillis;
    private final boolean allowEviction;

    /** Guards opening and closing; the fields it writes are read without it on every operation. */
    private final ReentrantLock setup = new ReentrantLock();

    private volatile CompletableFuture<RedisConnector.Connection> connecting;
    private volatile CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> subscription;
    private volatile boolean closed;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    private RedisLockStore(Builder builder) {
        this.connector = builder.connector();
        this.prefix = builder.keyPrefix.getBytes(StandardCharsets.UTF_8);
        this.channel = (builder.keyPrefix + "released").getBytes(StandardCharsets.UTF_8);
        this.commandTimeoutMillis = builder.commandTimeout.toMillis();
        this.allowEviction = builder.allowEviction;
    }

    /**
     * A store with a client of its own, shut down when the store closes.
     *
     * @param url {@code redis://[[user:]password@]host[:port][/database]}, or {@code rediss://} for TLS
     * @return the builder
     * @throws IllegalArgumentException if the URL is not a Redis URL
     */
    public static Builder builder(String url) {
        return new Builder(RedisSettings.parse(url), null, null);
    }

    /**
     * A store with a client of its own, shut down when the store closes.
     *
     * @param uri the server, or a node of the cluster ({@link Builder#cluster})
     * @return the builder
     */
    public static Builder builder(RedisURI uri) {
        return new Builder(Objects.requireNonNull(uri, "uri"), null, null);
    }

    /**
     * A store on the application's client, which it never shuts down.
     *
     * @param client a client created with its server's URI
     * @return the builder
     */
    public static Builder builder(RedisClient client) {
        return new Builder(null, Objects.requireNonNull(client, "client"), null);
    }

    /**
     * A store on the application's Redis Cluster client, which it never shuts down.
     *
     * @param client the cluster client
     * @return the builder
     */
    public static Builder builder(RedisClusterClient client) {
        return new Builder(null, null, Objects.requireNonNull(client, "client"));
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        Turn turn = acquisition.turn();
        byte[][] args = turn == null
                ? new byte[][] {
                    ascii(acquisition.owner()), number(acquisition.ttlMillis()), NO_WAITER, number(0), number(1)
                }
                : new byte[][] {
                    ascii(acquisition.owner()),
                    number(acquisition.ttlMillis()),
                    ascii(turn.waiter()),
                    number(turn.waitedMillis()),
                    number(turn.keepMillis())
                };
        String key = acquisition.key();
        List<Object> answer = run(
                "acquire",
                key,
                Scripts.ACQUIRE,
                ScriptOutputType.MULTI,
                keys(key),
                args,
                answerMillis(acquisition.maxWaitMillisOr(commandTimeoutMillis)));
        long first = (Long) answer.get(0);
        long second = (Long) answer.get(1);
        if (first == 1) {
            return AcquireResult.acquired(second);
        }
        boolean inTurn = (Long) answer.get(2) == 1;
        if (second < 0) {
            return inTurn ? AcquireResult.nextInTurn() : AcquireResult.notAcquired();
        }
        return inTurn ? AcquireResult.nextInTurn(second) : AcquireResult.notAcquired(second);
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        Long left = run(
                "leaveTurn",
                key,
                Scripts.LEAVE_TURN,
                ScriptOutputType.INTEGER,
                keys(key),
                new byte[][] {ascii(waiter), channel},
                commandTimeoutMillis);
        return left == 1;
    }

    @Override
    public boolean renew(Renewal renewal) {
        String key = renewal.key();
        Long renewed = run(
                "renew",
                key,
                Scripts.RENEW,
                ScriptOutputType.INTEGER,
                keys(key),
                new byte[][] {ascii(renewal.owner()), number(renewal.ttlMillis())},
                answerMillis(renewal.maxWaitMillisOr(commandTimeoutMillis)));
        return renewed == 1;
    }

    @Override
    public boolean release(String key, String owner) {
        Long released = run(
                "release",
                key,
                Scripts.RELEASE,
                ScriptOutputType.INTEGER,
                keys(key),
                new byte[][] {ascii(owner), channel},
                commandTimeoutMillis);
        return released == 1;
    }

    /** {@inheritDoc} One script: the record's owner, token and lease end, compared with Redis' clock. */
    @Override
    public Optional<Holder> inspect(String key) {
        List<Object> answer = run(
                "inspect",
                key,
                Scripts.INSPECT,
                ScriptOutputType.MULTI,
                keys(key),
                new byte[0][],
                commandTimeoutMillis);
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Holder(
                new String((byte[]) answer.get(0), StandardCharsets.US_ASCII),
                Long.parseLong(new String((byte[]) answer.get(1), StandardCharsets.US_ASCII)),
                (Long) answer.get(2)));
    }

    /**
     * {@inheritDoc} One script call per cluster slot (one in all on a single server), sent together, each
     * with at most {@value #RENEW_CHUNK} keys.
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        requireOpen();
        if (leases.isEmpty()) {
            return Set.of();
        }
        long timeoutMillis =
                answerMillis(maxWaitMillis == LockArguments.STORE_BOUND ? commandTimeoutMillis : maxWaitMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        String what = "renewing " + leases.size() + " leases";
        RedisConnector.Connection connection = connection(deadline, what);
        Map<Integer, List<Lease>> groups = new LinkedHashMap<>();
        for (Lease lease : leases) {
            int group = connector.cluster() ? SlotHash.getSlot(recordKey(lease.key())) : 0;
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(lease);
        }
        List<List<Lease>> chunks = new ArrayList<>();
        List<CompletableFuture<List<Object>>> answers = new ArrayList<>();
        for (List<Lease> group : groups.values()) {
            for (int from = 0; from < group.size(); from += RENEW_CHUNK) {
                List<Lease> chunk = group.subList(from, Math.min(group.size(), from + RENEW_CHUNK));
                byte[][] keys = new byte[chunk.size()][];
                byte[][] args = new byte[chunk.size() + 1][];
                args[0] = number(ttlMillis);
                for (int i = 0; i < chunk.size(); i++) {
                    keys[i] = recordKey(chunk.get(i).key());
                    args[i + 1] = ascii(chunk.get(i).owner());
                }
                chunks.add(chunk);
                answers.add(evaluate(connection, Scripts.RENEW_ALL, ScriptOutputType.MULTI, keys, args));
            }
        }
        Set<Lease> renewed = new HashSet<>();
        for (int c = 0; c < chunks.size(); c++) {
            List<Object> answer = await(answers.get(c), deadline, what);
            for (int i = 0; i < answer.size(); i++) {
                if ((Long) answer.get(i) == 1) {
                    renewed.add(chunks.get(c).get(i));
                }
            }
        }
        return renewed;
    }

    /**
     * {@inheritDoc} The listeners of one store share one subscription (one pub/sub connection). When Redis
     * cannot be reached, the listener is still registered and the store subscribes at a later operation;
     * meanwhile waiters poll.
     */
    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        requireOpen();
        listeners.add(listener);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(commandTimeoutMillis);
        try {
            await(subscribe(), deadline, "subscribing to " + new String(channel, StandardCharsets.UTF_8));
        } catch (LockStoreException e) {
            RedisMessage.NOT_SUBSCRIBED.logWithCause(LOG, e, e.getMessage());
        }
        return () -> listeners.remove(listener);
    }

    /** @return the subscription, started if it is not there (or failed before) */
    private CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> subscribe() {
        setup.lock();
        try {
            requireOpen();
            if (subscription == null || subscription.isCompletedExceptionally()) {
                subscription = connector.connectPubSub().thenCompose(pubSub -> {
                    pubSub.addListener(new RedisPubSubAdapter<>() {
                        @Override
                        public void message(byte[] from, byte[] message) {
                            released(message);
                        }
                    });
                    // Lettuce subscribes again by itself after a reconnect.
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

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /** Closes the connections, and the client when it is the store's own. Idempotent. */
    @Override
    public void close() {
        CompletableFuture<RedisConnector.Connection> connection;
        CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> pubSub;
        setup.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            connection = connecting;
            pubSub = subscription;
            connecting = null;
            subscription = null;
        } finally {
            setup.unlock();
        }
        listeners.clear();
        if (pubSub != null) {
            closeQuietly(pubSub.thenApply(p -> p));
        }
        if (connection != null) {
            closeQuietly(connection.thenApply(RedisConnector.Connection::connection));
        }
        connector.shutdown();
    }

    private static void closeQuietly(CompletableFuture<? extends io.lettuce.core.api.StatefulConnection<?, ?>> future) {
        if (future.isDone() && !future.isCompletedExceptionally()) {
            future.join().close();
        } else {
            future.thenAccept(io.lettuce.core.api.StatefulConnection::closeAsync); // still connecting: close when there
        }
    }

    /** @return the bound of calls that come without one, in milliseconds */
    public long commandTimeoutMillis() {
        return commandTimeoutMillis;
    }

    /** @return the prefix of the store's Redis keys */
    public String keyPrefix() {
        return new String(prefix, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "redis (" + connector + ", key prefix '" + keyPrefix() + "')";
    }

    // --- running scripts

    private <T> T run(
            String operation,
            String key,
            Script script,
            ScriptOutputType type,
            byte[][] keys,
            byte[][] args,
            long timeoutMillis) {
        requireOpen();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        String what = operation + " of '" + abbreviate(key) + "'";
        RedisConnector.Connection connection = connection(deadline, what);
        CompletableFuture<?> subscribed = subscription;
        if (!listeners.isEmpty() && (subscribed == null || subscribed.isCompletedExceptionally())) {
            subscribe(); // again, since it failed before: not waited for
        }
        return await(evaluate(connection, script, type, keys, args), deadline, what);
    }

    /** Runs a script by its SHA, and by its text when the server does not know it (any more). */
    private static <T> CompletableFuture<T> evaluate(
            RedisConnector.Connection connection, Script script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
        return commands.<T>evalsha(script.sha(), type, keys, args)
                .toCompletableFuture()
                .exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                        ? commands.<T>eval(script.source(), type, keys, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(unwrap(failure)));
    }

    private RedisConnector.Connection connection(long deadline, String what) {
        CompletableFuture<RedisConnector.Connection> future = connecting;
        if (future != null && future.isDone() && !future.isCompletedExceptionally()) {
            return future.join(); // the usual case, without the lock
        }
        setup.lock();
        try {
            requireOpen();
            if (connecting == null || connecting.isCompletedExceptionally()) {
                // A refused eviction policy fails the connection, so every operation checks again until
                // the server is fixed (no restart needed).
                connecting = connector.connect().thenCompose(this::checkEviction);
                connecting.thenAccept(c -> RedisMessage.CONNECTED.log(LOG, connector));
            }
            future = connecting;
        } finally {
            setup.unlock();
        }
        return await(future, deadline, "connecting to Redis for " + what);
    }

    /** @return the connection, once the server's maxmemory-policy is one the store may run on */
    private CompletableFuture<RedisConnector.Connection> checkEviction(RedisConnector.Connection connection) {
        return EvictionPolicy.check(connection, connector.toString(), allowEviction)
                .whenComplete((ok, failure) -> {
                    if (failure != null) {
                        connection.connection().closeAsync();
                    }
                })
                .thenApply(ok -> connection);
    }

    private <T> T await(CompletableFuture<T> future, long deadline, String what) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new LockStoreException("Redis (" + connector + ") did not answer " + what + " in time", e);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof LockConfigurationException refused) {
                throw new LockConfigurationException(refused.getMessage(), refused);
            }
            throw new LockStoreException("Redis (" + connector + ") failed " + what + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("Interrupted while waiting for Redis (" + connector + "): " + what, e);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    // --- arguments

    /** @return how long to wait for Redis' answer to a call bounded by {@code maxWaitMillis} */
    private long answerMillis(long maxWaitMillis) {
        return Math.min(commandTimeoutMillis, Math.max(maxWaitMillis, MIN_ANSWER_MILLIS));
    }

    private void requireOpen() {
        if (closed) {
            throw new LockStoreException("The Redis lock store is closed (" + connector + ")");
        }
    }

    private byte[][] keys(String key) {
        return new byte[][] {recordKey(key)};
    }

    /** The key's Redis key: the prefix, then the key in UTF-8 (exact: the key is valid UTF-16). */
    private byte[] recordKey(String key) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(prefix, prefix.length + utf8.length);
        System.arraycopy(utf8, 0, out, prefix.length, utf8.length);
        return out;
    }

    private static byte[] ascii(String value) {
        return value.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] number(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    private static String abbreviate(String key) {
        return key.length() <= 60 ? key : key.substring(0, 60) + "...";
    }

    /** Builds a {@link RedisLockStore}; nothing connects until the store's first operation. */
    public static final class Builder {
        private final RedisURI uri;
        private final RedisClient client;
        private final RedisClusterClient clusterClient;
        private boolean cluster;
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
        private boolean allowEviction;

        private Builder(RedisURI uri, RedisClient client, RedisClusterClient clusterClient) {
            this.uri = uri;
            this.client = client;
            this.clusterClient = clusterClient;
        }

        /**
         * Whether the URL names a node of a Redis Cluster (default false); the store then discovers the
         * cluster from it. Only for a store built from a URL.
         *
         * @param cluster true for a cluster
         * @return this
         */
        public Builder cluster(boolean cluster) {
            if (uri == null) {
                throw new IllegalStateException(
                        "cluster(...) is for a store built from a URL; pass a RedisClusterClient instead");
            }
            this.cluster = cluster;
            return this;
        }

        /**
         * The prefix of every Redis key of the store, and of its notification channel (default
         * {@value RedisLockStore#DEFAULT_KEY_PREFIX}): stores with different prefixes share nothing.
         *
         * @param keyPrefix 1 to 200 UTF-8 bytes of valid UTF-16
         * @return this
         * @throws IllegalArgumentException if it is empty, too long or not valid UTF-16
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = RedisSettings.requireValidKeyPrefix(keyPrefix);
            return this;
        }

        /**
         * How long connecting and a command may take when the caller gives no bound, and at most when it
         * does (default 5 s).
         *
         * @param commandTimeout 1 ms to 365 days
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder commandTimeout(Duration commandTimeout) {
            long millis =
                    Objects.requireNonNull(commandTimeout, "commandTimeout").toMillis();
            if (millis < 1 || millis > LockArguments.MAX_DURATION_MILLIS) {
                throw new IllegalArgumentException(
                        "commandTimeout must be from 1 ms to 365 days, was " + commandTimeout);
            }
            this.commandTimeout = Duration.ofMillis(millis);
            return this;
        }

        /**
         * Whether the store may run on a Redis whose {@code maxmemory-policy} evicts keys (default false).
         * When it connects, the store reads the policy ({@code CONFIG GET maxmemory-policy}, else
         * {@code INFO memory}; on a cluster, of every primary) and refuses any but {@code noeviction} with a
         * {@link LockConfigurationException} from the operation that connected, since a full Redis would drop
         * held locks' records (under {@code volatile-*} first of all: they are the keys with an expiry). With
         * {@code true} it only logs {@code BATON-REDIS-004}.
         *
         * @param allowEviction true to accept that locks may be lost to eviction
         * @return this
         */
        public Builder allowEviction(boolean allowEviction) {
            this.allowEviction = allowEviction;
            return this;
        }

        private RedisConnector connector() {
            if (uri != null) {
                return RedisConnector.forUri(uri, cluster, commandTimeout);
            }
            return client != null ? RedisConnector.forClient(client) : RedisConnector.forClient(clusterClient);
        }

        /** @return the store, not connected yet */
        public RedisLockStore build() {
            return new RedisLockStore(this);
        }
    }
}
