package dev.baton.redis;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreException;
import dev.baton.redis.internal.RedisConnector;
import dev.baton.redis.internal.RedisSettings;
import dev.baton.redis.internal.ReleaseSubscription;
import dev.baton.redis.internal.ScriptCalls;
import dev.baton.redis.internal.StoreConnection;
import dev.baton.redis.internal.StoreSettings;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * <li><b>Shared leases</b> ({@link StoreCapability#SHARED_LOCKS}: permits and read locks) live in the same hash,
 * one field per lease with its own owner, lease end and token (from the key's one sequence of tokens), so a key
 * is still one Redis key in one cluster slot, expiring by itself, evicted (where eviction is allowed at all) whole
 * or not at all. The exclusive operations cost what they cost without them: the same round trip and the same
 * reads, since a key held by shared leases looks to them like a key held until its longest shared lease
 * ends.</li>
 * <li><b>Bounded calls</b>: Redis never makes a script wait for another caller's lock, so a call's bound
 * only limits how long the store waits for the answer: its {@code maxWaitMillis}, but at least
 * {@value #MIN_ANSWER_MILLIS} ms (a healthy server's answer must fit) and at most the
 * {@linkplain Builder#commandTimeout command timeout}, which also bounds calls without a bound of their own.
 * A server that does not answer in time fails the call with a {@link LockStoreException}.</li>
 * </ul>
 * The store connects lazily, at its first operation; Lettuce reconnects by itself after a failure.
 * Connecting includes reading the server's {@code maxmemory-policy}: one that evicts keys is refused (see
 * {@link Builder#allowEviction}).
 *
 * <p>A facade: it gives each operation its time (from the call's bound and the command timeout) and calls its
 * parts, in {@code dev.baton.redis.internal}: {@code ScriptCalls} (the scripts, their keys and arguments, their
 * answers) on the {@code StoreConnection} (the lazy connection, the deadlines, the failures), and
 * {@code ReleaseSubscription} (the listeners' subscription); {@code StoreSettings} holds what the builder
 * collected, checked. {@link Builder} stays nested: applications and the factory name it
 * {@code RedisLockStore.Builder}.
 *
 * <p>Create one with {@link #builder(String)} (or from a client of the application), or let
 * {@code baton.store=redis} create it from configuration.
 */
public final class RedisLockStore implements LockStore {

    /** The command timeout when none is set. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

    /** The prefix of the store's Redis keys (and of its channel) when none is set. */
    public static final String DEFAULT_KEY_PREFIX = "baton:";

    /** The shortest time a bounded call waits for Redis' answer, in milliseconds. */
    public static final long MIN_ANSWER_MILLIS = 250;

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.RELEASE_NOTIFICATION,
            StoreCapability.WAITING_TURNS,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.INSPECT,
            StoreCapability.SHARED_LOCKS,
            StoreCapability.HAND_OVER);

    private final StoreSettings settings;
    private final RedisConnector connector;
    private final StoreConnection connection;
    private final ReleaseSubscription releases;
    private final ScriptCalls scripts;

    private RedisLockStore(StoreSettings settings) {
        this.settings = settings;
        this.connector = settings.connector();
        this.connection = new StoreConnection(connector, settings.allowEviction());
        this.releases = new ReleaseSubscription(connector, connection, settings);
        // a subscription that failed is tried again once a call finds Redis answering
        this.scripts = new ScriptCalls(connection, connector.cluster(), settings, releases::retryIfFailed);
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
        return scripts.acquire(acquisition, answerMillis(acquisition.maxWaitMillisOr(commandTimeoutMillis())));
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        return scripts.leaveTurn(key, waiter, commandTimeoutMillis());
    }

    @Override
    public boolean renew(Renewal renewal) {
        return scripts.renew(renewal, answerMillis(renewal.maxWaitMillisOr(commandTimeoutMillis())));
    }

    @Override
    public boolean release(String key, String owner) {
        return scripts.release(key, owner, commandTimeoutMillis());
    }

    /** {@inheritDoc} One script, bounded like {@link #release}. */
    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        HandOverResult.requireHandOverTo(next);
        return scripts.handOver(owner, next, commandTimeoutMillis());
    }

    /**
     * {@inheritDoc} One script: the record's owner, token and lease end, compared with Redis' clock; of a key held
     * by shared leases, the live one with the greatest token.
     */
    @Override
    public Optional<Holder> inspect(String key) {
        return scripts.inspect(key, commandTimeoutMillis());
    }

    /**
     * {@inheritDoc} One script call per cluster slot (one in all on a single server), sent together, each
     * with at most {@value ScriptCalls#RENEW_CHUNK} keys.
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        long bound = LockArguments.boundOr(maxWaitMillis, commandTimeoutMillis());
        return scripts.renewAll(leases, ttlMillis, answerMillis(bound));
    }

    /**
     * {@inheritDoc} The listeners of one store share one subscription (one pub/sub connection). When Redis
     * cannot be reached, the listener is still registered and the store subscribes at a later operation;
     * meanwhile waiters poll.
     */
    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        return releases.add(listener);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /** Closes the connections, and the client when it is the store's own. Idempotent. */
    @Override
    public void close() {
        if (!connection.close()) {
            return;
        }
        releases.close();
        connector.shutdown();
    }

    /** @return the bound of calls that come without one, in milliseconds */
    public long commandTimeoutMillis() {
        return settings.commandTimeoutMillis();
    }

    /** @return the prefix of the store's Redis keys */
    public String keyPrefix() {
        return settings.keyPrefix();
    }

    @Override
    public String toString() {
        return "redis (" + connector + ", key prefix '" + keyPrefix() + "')";
    }

    /** @return how long to wait for Redis' answer to a call bounded by {@code maxWaitMillis} */
    private long answerMillis(long maxWaitMillis) {
        return Math.min(commandTimeoutMillis(), Math.max(maxWaitMillis, MIN_ANSWER_MILLIS));
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
            this.commandTimeout = RedisSettings.requireValidCommandTimeout(commandTimeout);
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

        /** @return the store, not connected yet */
        public RedisLockStore build() {
            // the builder stays reusable: the store gets the settings, checked, in a record of their own
            return new RedisLockStore(
                    new StoreSettings(uri, client, clusterClient, cluster, keyPrefix, commandTimeout, allowEviction));
        }
    }
}
