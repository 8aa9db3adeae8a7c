package dev.baton.jpa.internal;

import dev.baton.jpa.JpaLockStore;
import dev.baton.jpa.LockMode;
import dev.baton.jpa.SchemaAction;
import dev.baton.jpa.TransactionRunner;
import dev.baton.jpa.TransactionSuspender;
import dev.baton.spi.KeyFormat;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The settings of one {@link JpaLockStore}, checked together and with the defaults applied, as
 * {@link JpaLockStore.Builder#build} hands them to the store (the builder stays reusable).
 *
 * @param factorySource the entity manager factory, or null on a data source
 * @param ownsFactory whether the store creates the factory and closes it
 * @param dataSource the data source, or null on an entity manager factory
 * @param suspender keeps a data source's connections out of the caller's transaction
 * @param table the lock table
 * @param sequence the fencing token sequence
 * @param schemaAction what to do with the schema at the first connection
 * @param runner how an operation on the entity manager factory gets a transaction of its own
 * @param statementTimeoutMillis the bound of calls that come without one
 * @param mode how the store holds its locks
 * @param purgeAfterMillis {@code purge-after}, 0: no purge
 * @param purgeIntervalMillis how often the store purges, 0 when it does not
 * @param purgeBatch rows per purge statement
 * @param logKeys how the store's log lines write keys ({@code baton.log.keys}); null: plain
 */
public record StoreSettings(
        Supplier<EntityManagerFactory> factorySource,
        boolean ownsFactory,
        DataSource dataSource,
        TransactionSuspender suspender,
        String table,
        String sequence,
        SchemaAction schemaAction,
        TransactionRunner runner,
        long statementTimeoutMillis,
        LockMode mode,
        long purgeAfterMillis,
        long purgeIntervalMillis,
        int purgeBatch,
        KeyFormat logKeys) {

    /**
     * Checks a builder's settings against each other and applies the defaults of those not set.
     *
     * @param suspender null: {@link TransactionSuspender#NONE}
     * @param runner null: one {@code RESOURCE_LOCAL} transaction per operation
     * @param purgeIntervalMillis 0: {@link #defaultPurgeInterval} of {@code purgeAfterMillis}
     * @throws IllegalStateException if a transaction runner was set on a data source, a suspender on an entity
     *     manager factory, or a purge interval without {@code purge-after}
     * @throws IllegalArgumentException if {@code purge-after} is shorter than {@link #minimumPurgeAfter}
     */
    public StoreSettings {
        if (dataSource != null && runner != null) {
            throw new IllegalStateException("A store on a data source runs its own JDBC transactions: a"
                    + " TransactionRunner is for stores on an EntityManagerFactory (use transactionSuspender)");
        }
        if (dataSource == null && suspender != null) {
            throw new IllegalStateException("A TransactionSuspender is for stores on a data source; on an"
                    + " EntityManagerFactory use a TransactionRunner");
        }
        if (mode == LockMode.TABLE) {
            requireRoomForSharedTable(table);
        }
        if (purgeAfterMillis > 0) {
            Duration minimum = minimumPurgeAfter(Duration.ofMillis(statementTimeoutMillis));
            if (purgeAfterMillis < minimum.toMillis()) {
                throw new IllegalArgumentException("purge-after of " + purgeAfterMillis + " ms is shorter than the"
                        + " minimum of " + minimum.toMillis() + " ms for a statement timeout of "
                        + statementTimeoutMillis + " ms (10 x (statement timeout + "
                        + CallBound.NETWORK_ALLOWANCE_MILLIS + " ms), at least 1 minute)");
            }
        } else if (purgeIntervalMillis > 0) {
            throw new IllegalStateException("A purge interval without purge-after: set purgeAfter too");
        }
        suspender = suspender != null ? suspender : TransactionSuspender.NONE;
        logKeys = logKeys != null ? logKeys : KeyFormat.PLAIN;
        runner = runner != null ? runner : ResourceLocalTransactionRunner.INSTANCE;
        purgeIntervalMillis = purgeAfterMillis == 0
                ? 0
                : purgeIntervalMillis > 0 ? purgeIntervalMillis : defaultPurgeInterval(purgeAfterMillis);
    }

    /**
     * The shortest {@code purge-after} a store accepts with a statement timeout (see
     * {@link JpaLockStore#minimumPurgeAfter}).
     *
     * @param statementTimeout the statement timeout
     * @return the minimum
     */
    public static Duration minimumPurgeAfter(Duration statementTimeout) {
        long statement = statementTimeout.toMillis() + CallBound.NETWORK_ALLOWANCE_MILLIS;
        return Duration.ofMillis(Math.max(60_000L, Math.multiplyExact(statement, 10L)));
    }

    /**
     * Table mode keeps shared leases in a second table named after the lock table ({@link SchemaScript#sharedTableOf}),
     * whose name must be an identifier of at most 63 characters too.
     */
    private static void requireRoomForSharedTable(String table) {
        String shared = SchemaScript.sharedTableOf(table);
        if (!Identifiers.isValid(shared)) {
            int room = 63 - SchemaScript.SHARED_TABLE_SUFFIX.length();
            throw new IllegalArgumentException("The lock table name '" + table + "' is too long for table mode: the"
                    + " store keeps shared leases (permits, read locks) in a second table named after it, " + shared
                    + ", and a name has at most 63 characters. Name the lock table with at most " + room
                    + " characters (after the schema)");
        }
    }

    /** Half of {@code purge-after}, from 30 s to an hour. */
    static long defaultPurgeInterval(long purgeAfterMillis) {
        return Math.max(30_000L, Math.min(3_600_000L, purgeAfterMillis / 2));
    }

    /** @return whether the store runs plain JDBC on a data source rather than on an entity manager factory */
    public boolean onDataSource() {
        return dataSource != null;
    }
}
