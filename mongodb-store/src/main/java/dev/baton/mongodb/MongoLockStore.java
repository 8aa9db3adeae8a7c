package dev.baton.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import dev.baton.LockStoreException;
import dev.baton.mongodb.internal.MongoConnection;
import dev.baton.mongodb.internal.MongoLocks;
import dev.baton.mongodb.internal.MongoSettings;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The MongoDB lock store: one document per key in one collection, changed only by single-document atomic updates,
 * timed by the server's clock, through the MongoDB Java driver (MongoDB 4.2 or later).
 *
 * <ul>
 * <li><b>Atomic</b>: each change is one {@code findOneAndUpdate} or {@code updateOne} whose filter is the condition
 * of a compare-and-set: "the key is free or its lease is over" to take it, "this owner's live lock" to renew or
 * release it. A key without a document is created by an upsert; of two callers creating it at once, the one that
 * gets a duplicate key error lost the race: not acquired, never an error.</li>
 * <li><b>The server's clock</b>: the lease's start is written by the server ({@code $currentDate}) and compared with
 * its {@code $$NOW}, so instances with skewed clocks agree on expiry; the store never reads the client's clock.</li>
 * <li><b>Fencing tokens</b> are {@code max(last token of the key + 1, server clock in ms × 1000)}, at most a
 * thousand per key in one server millisecond: they grow with each acquisition and keep growing after the key's
 * document is deleted (by the TTL index or by hand) and made again, as long as the server's clock is not set back.
 * A key without a document first gets a free placeholder whose last token tops the current millisecond, and is then
 * taken in the next one.</li>
 * <li><b>Old documents go</b>: two TTL indexes, which the store creates at its first operation, delete a key's
 * document at least a day after its lock's lease ended (a released key's a day after the release).</li>
 * <li><b>Bounded calls</b>: MongoDB never makes a single-document update wait long for another caller, so a call's
 * bound limits how long the store waits for the server: its {@code maxWaitMillis}, but at least
 * {@value #MIN_ANSWER_MILLIS} ms and at most the {@linkplain Builder#operationTimeout operation timeout}, which also
 * bounds calls without a bound of their own (the driver's {@code timeoutMS}). A server that does not answer in time
 * fails the call with a {@link LockStoreException}.</li>
 * <li>No release notification: waiters poll (see docs/stores.md for why).</li>
 * </ul>
 * The store connects lazily, at its first operation; the driver reconnects by itself after a failure. Reads go to
 * the primary; writes use the client's write concern (use {@code w=majority}, MongoDB's default on replica sets, so
 * that a lock survives a failover).
 *
 * <p>Create one with {@link #builder(String)} or {@link #builder(MongoClient)}, or let {@code baton.store=mongodb}
 * create it from configuration.
 */
public final class MongoLockStore implements LockStore {

    /** The database when neither the builder nor the connection string names one. */
    public static final String DEFAULT_DATABASE = "baton";

    /** The collection when none is set. */
    public static final String DEFAULT_COLLECTION = "baton_locks";

    /** The operation timeout when none is set. */
    public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(5);

    /** The shortest time a bounded call waits for MongoDB's answer, in milliseconds. */
    public static final long MIN_ANSWER_MILLIS = 250;

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.INSPECT,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.BATCH_RENEW);

    private final String description;
    private final long operationTimeoutMillis;
    private final String database;
    private final String collection;
    private final MongoConnection connection;
    private final MongoLocks locks;

    private MongoLockStore(Builder builder) {
        this.database = builder.database != null
                ? builder.database
                : builder.url != null && builder.url.getDatabase() != null
                        ? builder.url.getDatabase()
                        : DEFAULT_DATABASE;
        this.collection = builder.collection;
        this.operationTimeoutMillis = builder.operationTimeout.toMillis();
        String where = builder.url != null ? String.join(",", builder.url.getHosts()) : "the application's MongoClient";
        this.description = "mongodb (" + where + ", collection " + database + "." + collection + ")";
        this.connection = new MongoConnection(builder.url, builder.client, database, collection, description);
        this.locks = new MongoLocks(connection);
    }

    /**
     * A store with a client of its own, closed when the store closes.
     *
     * @param url a MongoDB connection string: {@code mongodb://[user:password@]host[:port][,host...][/database][?options]}
     *     or {@code mongodb+srv://...}; its database, if it names one, is the store's unless {@link Builder#database}
     *     sets another
     * @return the builder
     * @throws IllegalArgumentException if {@code url} is empty or not a MongoDB connection string
     */
    public static Builder builder(String url) {
        return new Builder(MongoSettings.connectionString(url), null);
    }

    /**
     * A store on the application's client, which it never closes.
     *
     * @param client the client
     * @return the builder
     */
    public static Builder builder(MongoClient client) {
        return new Builder(null, Objects.requireNonNull(client, "client"));
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        // no turns, no shared leases: the runtime sends neither to a store that does not declare them
        return locks.acquire(
                acquisition.key(),
                acquisition.owner(),
                acquisition.ttlMillis(),
                answerMillis(acquisition.maxWaitMillisOr(operationTimeoutMillis)));
    }

    @Override
    public boolean renew(Renewal renewal) {
        return locks.renew(
                renewal.key(),
                renewal.owner(),
                renewal.ttlMillis(),
                answerMillis(renewal.maxWaitMillisOr(operationTimeoutMillis)));
    }

    @Override
    public boolean release(String key, String owner) {
        return locks.release(key, owner, operationTimeoutMillis);
    }

    /**
     * {@inheritDoc} Two round trips per {@value MongoLocks#RENEW_CHUNK} leases: one {@code updateMany} of the live
     * locks of exactly these keys and owners, which marks them with the batch's id, and one read of the marked ones.
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        LockArguments.requireValidTtl(ttlMillis);
        connection.requireOpen("batch renewal");
        if (leases.isEmpty()) {
            return Set.of();
        }
        long bound = answerMillis(LockArguments.boundOr(maxWaitMillis, operationTimeoutMillis));
        return locks.renewAll(new ArrayList<>(leases), ttlMillis, bound);
    }

    /** {@inheritDoc} One read: the document's owner, token and lease end, compared with the server's clock. */
    @Override
    public Optional<Holder> inspect(String key) {
        return locks.inspect(key, operationTimeoutMillis);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /** Closes the client when it is the store's own; the application's stays open. A second call does nothing. */
    @Override
    public void close() {
        connection.close();
    }

    /** @return the database of the store's collection */
    public String database() {
        return database;
    }

    /** @return the store's collection */
    public String collection() {
        return collection;
    }

    /** @return the bound of calls that come without one, in milliseconds */
    public long operationTimeoutMillis() {
        return operationTimeoutMillis;
    }

    @Override
    public String toString() {
        return description;
    }

    /** @return how long to wait for MongoDB's answer to a call bounded by {@code maxWaitMillis} */
    private long answerMillis(long maxWaitMillis) {
        return Math.min(operationTimeoutMillis, Math.max(maxWaitMillis, MIN_ANSWER_MILLIS));
    }

    /** Settings of a {@link MongoLockStore}, checked as they are set; nothing connects until the store's first operation. */
    public static final class Builder {

        private final ConnectionString url;
        private final MongoClient client;
        private String database;
        private String collection = DEFAULT_COLLECTION;
        private Duration operationTimeout = DEFAULT_OPERATION_TIMEOUT;

        private Builder(ConnectionString url, MongoClient client) {
            this.url = url;
            this.client = client;
            if (url != null && url.getDatabase() != null) {
                MongoSettings.requireValidDatabase(url.getDatabase());
            }
        }

        /**
         * The database of the store's collection (default: the connection string's, else
         * {@value MongoLockStore#DEFAULT_DATABASE}).
         *
         * @param database a MongoDB database name
         * @return this
         * @throws IllegalArgumentException if MongoDB would refuse the name
         */
        public Builder database(String database) {
            this.database = MongoSettings.requireValidDatabase(database);
            return this;
        }

        /**
         * The collection of the store's documents (default {@value MongoLockStore#DEFAULT_COLLECTION}): stores on
         * different collections share nothing. Give it to the store alone: its TTL indexes delete old documents.
         *
         * @param collection a MongoDB collection name, not {@code system.*}
         * @return this
         * @throws IllegalArgumentException if MongoDB would refuse the name
         */
        public Builder collection(String collection) {
            this.collection = MongoSettings.requireValidCollection(collection);
            return this;
        }

        /**
         * How long a call (connecting included) may take when the caller gives no bound, and at most when it does
         * (default 5 s).
         *
         * @param operationTimeout 1 ms to 365 days
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = MongoSettings.requireValidOperationTimeout(operationTimeout);
            return this;
        }

        /** @return a new store; it connects at its first operation */
        public MongoLockStore build() {
            return new MongoLockStore(this);
        }
    }
}
