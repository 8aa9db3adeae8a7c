package dev.baton.mongodb.internal;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.mongodb.MongoLockStore;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * {@code baton.store=mongodb}. Settings (below {@code baton.mongodb.}, or {@code baton.<manager>.mongodb.}):
 * <ul>
 * <li>{@code url} (required): the connection string, {@code mongodb://[user:password@]host[:port][,host...][/database][?options]}
 * or {@code mongodb+srv://...};</li>
 * <li>{@code database} (default: the connection string's, else {@code baton}): the database of the collection;</li>
 * <li>{@code collection} (default {@code baton_locks}): the collection of the store's documents;</li>
 * <li>{@code operation-timeout} (default {@code 5s}): how long a call may take when the caller gives no bound, and
 * at most when it does.</li>
 * </ul>
 * Durations: {@code 500ms}, {@code 5s}, {@code 1m}, ISO-8601 ({@code PT5S}) or plain milliseconds. Driver classes are
 * touched only after {@link #validate} has found them, so a missing driver is reported as
 * {@link LockStoreDriverNotFoundException}.
 */
public final class MongoLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "mongodb";

    static final String URL = "url";
    static final String DATABASE = "database";
    static final String COLLECTION = "collection";
    static final String OPERATION_TIMEOUT = "operation-timeout";

    /** What to add when the driver is missing. */
    static final String DRIVER =
            "the MongoDB Java driver (Maven artifact org.mongodb:mongodb-driver-sync, 5.2 or later;"
                    + " baton-mongodb-store brings it unless it was excluded)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Set<String>> settingNames() {
        return Optional.of(Set.of(URL, DATABASE, COLLECTION, OPERATION_TIMEOUT));
    }

    @Override
    public void validate(StoreContext context) {
        requireDriver();
        builder(context);
    }

    @Override
    public LockStore create(StoreContext context) {
        requireDriver();
        return builder(context).build();
    }

    private static void requireDriver() {
        try {
            Class.forName("com.mongodb.client.MongoClients", false, MongoLockStoreFactory.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LockStoreDriverNotFoundException(NAME, DRIVER, e);
        }
    }

    /** The builder with every setting read and checked: a bad one fails the deployment, naming its key. */
    private static MongoLockStore.Builder builder(StoreContext context) {
        String url = context.setting(URL)
                .orElseThrow(() -> new LockConfigurationException("The MongoDB lock store needs a server: set "
                        + context.settingKey(URL) + " (mongodb://host[:port][/database], or mongodb+srv://...)"));
        MongoLockStore.Builder builder;
        try {
            builder = MongoLockStore.builder(url);
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException(context.settingKey(URL) + ": " + e.getMessage(), e);
        }
        Optional<String> database = context.setting(DATABASE);
        if (database.isPresent()) {
            try {
                builder.database(database.get().strip());
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(context.settingKey(DATABASE) + ": " + e.getMessage(), e);
            }
        }
        Optional<String> collection = context.setting(COLLECTION);
        if (collection.isPresent()) {
            try {
                builder.collection(collection.get().strip());
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(context.settingKey(COLLECTION) + ": " + e.getMessage(), e);
            }
        }
        Optional<String> timeout = context.setting(OPERATION_TIMEOUT);
        if (timeout.isPresent()) {
            String key = context.settingKey(OPERATION_TIMEOUT);
            Duration duration;
            try {
                duration = MongoSettings.duration(timeout.get());
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(key + "='" + timeout.get().strip() + "' " + e.getMessage(), e);
            }
            try {
                builder.operationTimeout(duration);
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(
                        key + "='" + timeout.get().strip() + "' must be from 1 ms to 365 days", e);
            }
        }
        return builder;
    }
}
