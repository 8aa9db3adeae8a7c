package dev.baton.mongodb.internal;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ReadPreference;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.baton.LockStoreException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.bson.Document;

/**
 * The store's way to its collection: the client, made at the first operation (or the application's, never closed
 * here), the TTL indexes, made once at the first operation that reaches the server, and every call's deadline and
 * failures. The driver reconnects by itself; a call that finds the server gone fails, and the next one tries again.
 */
public final class MongoConnection {

    private static final System.Logger LOG = System.getLogger(MongoMessage.LOGGER);

    /**
     * The answers to {@code createIndexes} that asking again will not change: Unauthorized, CommandNotFound,
     * CannotCreateIndex, IndexAlreadyExists, IndexOptionsConflict, IndexKeySpecsConflict, CommandNotSupported.
     */
    private static final java.util.Set<Integer> REFUSALS = java.util.Set.of(13, 59, 67, 68, 85, 86, 115);

    private final ConnectionString url;
    private final MongoClient applicationClient;
    private final String database;
    private final String collectionName;
    private final String description;
    private final Object opening = new Object();

    private volatile boolean closed;
    private volatile MongoClient ownClient;
    private volatile MongoCollection<Document> collection;
    private volatile boolean indexed;

    /**
     * @param url the server, for a client of the store's own; null with {@code applicationClient}
     * @param applicationClient the application's client, or null
     * @param database the database
     * @param collection the collection
     * @param description what the store is, for messages
     */
    public MongoConnection(
            ConnectionString url,
            MongoClient applicationClient,
            String database,
            String collection,
            String description) {
        if ((url == null) == (applicationClient == null)) {
            throw new IllegalArgumentException("a store needs a connection string or a client, exactly one of them");
        }
        this.url = url;
        this.applicationClient = applicationClient;
        this.database = database;
        this.collectionName = collection;
        this.description = description;
    }

    /**
     * One call of the store: its deadline, its collection bounded by what is left of it, its failures translated.
     *
     * @param what the operation and its key, for messages
     * @param timeoutMillis how long the whole call may take
     * @param body the call's round trips, each on {@link Call#collection()}
     * @param <T> its answer
     * @return the body's answer
     * @throws LockStoreException if the store is closed, the server failed or it did not answer in time
     */
    public <T> T call(String what, long timeoutMillis, Function<Call, T> body) {
        requireOpen(what);
        Call call = new Call(what, timeoutMillis);
        try {
            MongoCollection<Document> opened = open(call);
            call.opened = opened;
            return body.apply(call);
        } catch (MongoTimeoutException e) {
            throw new LockStoreException(
                    "MongoDB did not answer the " + what + " within " + timeoutMillis + " ms (" + description + ")", e);
        } catch (MongoException e) {
            if (closed) {
                throw closedException(what, e);
            }
            throw new LockStoreException(
                    "The " + what + " failed on MongoDB (" + description + "): " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            // the driver's answer on a client closed meanwhile: the store's, or the application's
            throw closed ? closedException(what, e) : new LockStoreException("The " + what + " failed: " + e, e);
        }
    }

    /** @param what the operation, for the message */
    public void requireOpen(String what) {
        if (closed) {
            throw closedException(what, null);
        }
    }

    /**
     * Closes the store's own client; the application's stays open. A second call does nothing.
     *
     * @return true the first time
     */
    public boolean close() {
        synchronized (opening) {
            if (closed) {
                return false;
            }
            closed = true;
            MongoClient own = ownClient;
            if (own != null) {
                own.close();
            }
            return true;
        }
    }

    private MongoCollection<Document> open(Call call) {
        MongoCollection<Document> opened = collection;
        if (opened == null) {
            synchronized (opening) {
                requireOpen(call.what);
                opened = collection;
                if (opened == null) {
                    MongoClient client = applicationClient;
                    if (client == null) {
                        ownClient = client = MongoClients.create(MongoClientSettings.builder()
                                .applyConnectionString(url)
                                .applicationName(url.getApplicationName() == null ? "baton" : url.getApplicationName())
                                .build());
                    }
                    opened = client.getDatabase(database)
                            .getCollection(collectionName)
                            .withReadPreference(ReadPreference.primary());
                    collection = opened;
                }
            }
        }
        if (!indexed) {
            createIndexes(opened, call);
        }
        return opened;
    }

    /**
     * Creates the two TTL indexes (an index that exists with the same options is left as it is). A server that does
     * not answer fails the call, which tries again next time; a server that refuses (no right to, an index of that
     * name with other options) is logged once: locks work without them.
     */
    private void createIndexes(MongoCollection<Document> opened, Call call) {
        try {
            call.bounded(opened)
                    .createIndexes(List.of(
                            new IndexModel(
                                    Indexes.ascending(LockDocuments.KEEP_SHORT),
                                    new IndexOptions()
                                            .name(LockDocuments.KEEP_SHORT_INDEX)
                                            .expireAfter(LockDocuments.KEEP_SHORT_SECONDS, TimeUnit.SECONDS)),
                            new IndexModel(
                                    Indexes.ascending(LockDocuments.KEEP_LONG),
                                    new IndexOptions()
                                            .name(LockDocuments.KEEP_LONG_INDEX)
                                            .expireAfter(LockDocuments.KEEP_LONG_SECONDS, TimeUnit.SECONDS))));
            MongoMessage.INDEXES_READY.log(LOG, description, database + "." + collectionName);
        } catch (MongoCommandException e) {
            if (!REFUSALS.contains(e.getErrorCode())) {
                throw e; // not answered as it should be (a primary stepping down, ...): tried again next time
            }
            MongoMessage.INDEXES_FAILED.logWithCause(LOG, e, database + "." + collectionName, e.getErrorMessage());
        }
        indexed = true;
    }

    private LockStoreException closedException(String what, Throwable cause) {
        return new LockStoreException("The MongoDB lock store is closed: no " + what + " (" + description + ")", cause);
    }

    /** One call: its deadline, and its collection once open. */
    public static final class Call {

        private final String what;
        private final long timeoutMillis;
        private final long deadline;
        private MongoCollection<Document> opened;

        Call(String what, long timeoutMillis) {
            this.what = what;
            this.timeoutMillis = timeoutMillis;
            this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        }

        /**
         * @return the collection, bounded by what is left of the call's time
         * @throws LockStoreException if none is left
         */
        public MongoCollection<Document> collection() {
            return bounded(opened);
        }

        private MongoCollection<Document> bounded(MongoCollection<Document> target) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left < 1) {
                throw new LockStoreException("MongoDB did not answer the " + what + " within " + timeoutMillis + " ms");
            }
            return target.withTimeout(left, TimeUnit.MILLISECONDS);
        }
    }
}
