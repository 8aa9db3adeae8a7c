package dev.baton.jpa;

import dev.baton.LockStoreException;
import dev.baton.jpa.internal.CallBound;
import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.Identifiers;
import dev.baton.jpa.internal.LockOperations;
import dev.baton.jpa.internal.Purger;
import dev.baton.jpa.internal.ReleaseListener;
import dev.baton.jpa.internal.StoreConnector;
import dev.baton.jpa.internal.StoreSettings;
import dev.baton.jpa.internal.TableLocks;
import dev.baton.jpa.internal.advisory.AdvisoryMode;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.KeyFormat;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The SQL lock store: one row per key in a table, written by one atomic statement per operation,
 * timed by the database's clock, with fencing tokens from a database sequence. Shared leases (permits and read
 * locks, {@link StoreCapability#SHARED_LOCKS}) have a row each in a second table named after the first
 * ({@code baton_locks_shared}), and each operation on them is one short transaction that locks the key's row
 * first; the exclusive operations stay one statement each. PostgreSQL, MariaDB
 * and H2 are supported; the dialect is chosen from the connection's metadata at the first operation, which
 * also logs {@code BATON-JPA-020} (once per database) when the database lives inside this JVM (H2 in memory or
 * on a file opened embedded, e.g. the default data source of Payara Micro and WildFly): its locks then exclude
 * only within this JVM.
 *
 * <p>Every operation runs in a transaction of its own ({@link TransactionRunner}), never in the
 * caller's; on PostgreSQL and MariaDB under the default runner, as one autocommit statement: one round trip
 * (on MariaDB on a connection of the unit's pool, outside the JPA provider's transaction). The store connects lazily: creating it touches nothing, and after the database was down
 * the next operation simply tries again.
 *
 * <p>Every call is bounded (see {@link LockStore}, "Bounded calls"): it waits for a row lock of
 * another transaction at most its {@code maxWaitMillis} (an acquisition then answers not acquired;
 * a renewal or release fails), and its connection gets a network timeout of that time plus
 * {@value CallBound#NETWORK_ALLOWANCE_MILLIS} ms, so a database that stops answering fails the call
 * with a {@link LockStoreException} instead of holding it. Calls without a bound of their own (requests
 * with {@link LockArguments#STORE_BOUND}, {@link #release}, {@link #leaveTurn}, {@link #inspect}) get the
 * {@linkplain Builder#statementTimeout statement timeout}.
 *
 * <p>In {@linkplain LockMode#ADVISORY advisory mode} ({@link Builder#mode}) the store holds each key as a
 * database session lock (PostgreSQL, MariaDB) on a connection of this instance instead of a row, so a holder
 * whose process dies or whose connection drops frees its keys at once; it then declares only
 * {@link StoreCapability#ENDS_WITH_CONNECTION}. Tokens come from the same sequence in both modes.
 *
 * <p>With {@link Builder#purgeAfter} the store deletes rows whose lease ended long ago ({@link #purgeExpired}).
 *
 * <p>A facade: it calls, once per operation, the {@link LockOperations} of its mode
 * (chosen when it is built), which run their statements through the {@link StoreConnector} (lazy connection,
 * schema, retries); the {@link Purger} purges. The file is about 560 lines because {@link Builder}, two fifths of
 * it, stays nested (see there why); the store's own part is a facade of about 350, mostly javadoc.
 *
 * <p>Create one with {@link #builder(DataSource)} or {@link #builder(EntityManagerFactory)}, or let
 * {@code baton.store=jpa} create it from configuration.
 */
public final class JpaLockStore implements LockStore {

    /** The default bound of a call that comes without one. */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * The key of the lock under which one instance at a time purges a table ({@link Builder#purgeAfter}):
     * reserved, do not lock it yourself.
     */
    public static final String PURGE_KEY = Purger.KEY;

    private final StoreSettings settings;
    private final StoreConnector connector;
    /** The mode's operations, chosen once. */
    private final LockOperations locks;

    private final Purger purger;

    private JpaLockStore(StoreSettings settings) {
        this.settings = settings;
        this.connector = new StoreConnector(settings);
        this.locks = settings.mode() == LockMode.ADVISORY
                ? new AdvisoryMode(connector, settings)
                : new TableLocks(connector, settings);
        this.purger = new Purger(locks, connector, settings);
    }

    /**
     * The shortest {@code purge-after} the store accepts with a statement timeout: ten times the longest an
     * acquisition's statement may run (with a purge, its row lock waits end after the statement timeout, and
     * its round trip {@value CallBound#NETWORK_ALLOWANCE_MILLIS} ms after that), and at least a minute. Why:
     * an acquisition that inserts a key's row draws its token before it finds the row missing, so a token
     * handed out for the key meanwhile could only be greater than it if that row had been deleted in
     * between, which a purge does only once the row's lease ended {@code purge-after} ago — longer than the
     * statement runs.
     *
     * @param statementTimeout the statement timeout
     * @return the minimum
     */
    public static Duration minimumPurgeAfter(Duration statementTimeout) {
        return StoreSettings.minimumPurgeAfter(statementTimeout);
    }

    /**
     * A builder for a store on the application's entity manager factory (not closed by the store).
     *
     * @param factory the factory; its persistence unit should be {@code RESOURCE_LOCAL} unless a JTA
     *     {@link TransactionRunner} is supplied
     * @return the builder
     */
    public static Builder builder(EntityManagerFactory factory) {
        Objects.requireNonNull(factory, "factory");
        return new Builder(() -> factory, false, null);
    }

    /**
     * A builder for a store on a JDBC data source (not closed by the store), with no persistence unit:
     * each operation takes a connection, runs in a local transaction of its own (on PostgreSQL one autocommit
     * statement) and gives the connection back. For a JTA data source, supply a
     * {@linkplain Builder#transactionSuspender suspender} so the store's connections stay out of the caller's
     * transaction ({@code baton.jpa.data-source} does).
     *
     * @param dataSource the data source
     * @return the builder
     */
    public static Builder builder(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new Builder(null, false, dataSource);
    }

    /**
     * A builder for a store that creates its entity manager factory at its first operation (and again
     * at the next one if that failed) and closes it when the store is closed.
     *
     * @param factory creates the factory, e.g. {@code () -> Persistence.createEntityManagerFactory("locks")}
     * @return the builder
     */
    public static Builder builder(Supplier<EntityManagerFactory> factory) {
        Objects.requireNonNull(factory, "factory");
        return new Builder(factory, true, null);
    }

    /**
     * {@inheritDoc} A row lock that another transaction holds on the key (a new holder waits for the fenced
     * writes of the last one) is waited for at most the request's {@code maxWaitMillis}, or the
     * {@linkplain Builder#statementTimeout statement timeout} for a request without a bound; then: not acquired (and the turn
     * unchanged). The turn is kept in the key's row (columns {@code turn_waiter}, {@code turn_since},
     * {@code turn_until}), by the database clock, in the same statement as the acquisition; the advisory mode
     * has no turns and ignores it.
     *
     * <p>A shared acquisition ({@link Acquisition#isShared()}, table mode only: {@link StoreCapability#SHARED_LOCKS})
     * is one transaction of a few statements that locks the key's row first (see docs/internals.md); an exclusive
     * one stays one statement.
     *
     * @throws UnsupportedOperationException for a shared acquisition in advisory mode, which holds none
     */
    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        if (acquisition.isShared()) {
            return locks.acquireShared(
                    acquisition.key(),
                    acquisition.owner(),
                    acquisition.ttlMillis(),
                    acquisition.maxWaitMillisOr(settings.statementTimeoutMillis()),
                    acquisition.turn(),
                    acquisition.sharedLimit());
        }
        return locks.acquire(
                acquisition.key(),
                acquisition.owner(),
                acquisition.ttlMillis(),
                acquisition.maxWaitMillisOr(settings.statementTimeoutMillis()),
                acquisition.turn());
    }

    /**
     * {@inheritDoc} Table mode on PostgreSQL ({@link StoreCapability#HAND_OVER}, declared once connected): one
     * statement, bounded by the {@linkplain Builder#statementTimeout statement timeout} like {@link #release}; the
     * owner's row is locked as an acquisition locks it, so the hand-over waits for a fenced write in progress.
     * Elsewhere the two calls of the default.
     */
    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        HandOverResult.requireHandOverTo(next);
        if (!capabilities().contains(StoreCapability.HAND_OVER)) {
            return LockStore.super.handOver(owner, next);
        }
        return locks.handOver(owner, next);
    }

    /**
     * Purges now, as the store does every {@linkplain Builder#purgeInterval purge interval} by itself: under the
     * store's lock {@link #PURGE_KEY} (taken without waiting; renewed before each batch, released at the end),
     * deletes in batches of at most 100 the rows whose lease (and turn, if any) ended
     * more than {@linkplain Builder#purgeAfter purge-after} ago by the database clock. Each batch is a plain
     * read of candidates and one {@code DELETE} by primary key that repeats the condition, so the database
     * judges each row again on its newest version under its row lock: a row taken or renewed meanwhile stays.
     *
     * @return how many rows it deleted, or empty when another instance (or store) holds the purge lock
     * @throws IllegalStateException if the store has no {@code purge-after}
     * @throws LockStoreException if a statement failed (rows deleted by earlier batches stay deleted)
     */
    public OptionalLong purgeExpired() {
        return purger.purge();
    }

    /** @return {@code purge-after} in milliseconds, 0 when the store does not purge */
    public long purgeAfterMillis() {
        return settings.purgeAfterMillis();
    }

    /** @return how often the store purges, in milliseconds, 0 when it does not */
    public long purgeIntervalMillis() {
        return settings.purgeIntervalMillis();
    }

    /** For tests: runs between the read of each batch's candidates and their delete. */
    void beforePurgeDelete(Consumer<List<String>> hook) {
        purger.beforePurgeDelete(hook);
    }

    /**
     * {@inheritDoc} One compare-and-set of the key's turn columns; the lock columns are left alone.
     * Bounded by the {@linkplain Builder#statementTimeout statement timeout}, like {@link #release}.
     */
    @Override
    public boolean leaveTurn(String key, String waiter) {
        return locks.leaveTurn(key, waiter);
    }

    /**
     * {@inheritDoc} A request without a bound ({@link LockArguments#STORE_BOUND}) gets the
     * {@linkplain Builder#statementTimeout statement timeout}.
     */
    @Override
    public boolean renew(Renewal renewal) {
        return locks.renew(
                renewal.key(),
                renewal.owner(),
                renewal.ttlMillis(),
                renewal.maxWaitMillisOr(settings.statementTimeoutMillis()));
    }

    /**
     * {@inheritDoc} In a few statements instead of one call per lock (see docs/internals.md): on PostgreSQL one
     * autocommit statement per thousand leases, on MariaDB one per thousand (and a read for a batch in which a
     * lease was lost), on H2 one transaction of two statements per hundred. With
     * {@link LockArguments#STORE_BOUND}, bounded by the {@linkplain Builder#statementTimeout statement timeout}.
     * If a row of one of the leases stays locked by another transaction longer than the bound, the whole call
     * fails (on PostgreSQL, the batches before it may have been renewed: each commits on its own; a lease
     * renewed and not reported is only held a little longer).
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        if (leases.isEmpty()) {
            return Set.of();
        }
        long bound = LockArguments.boundOr(maxWaitMillis, settings.statementTimeoutMillis());
        return locks.renewAll(leases, ttlMillis, bound);
    }

    /**
     * {@inheritDoc} Bounded by the {@linkplain Builder#statementTimeout statement timeout}. The exclusive release's
     * statement runs first; only when it freed nothing, the release of a shared lease (as does {@link #renew}).
     */
    @Override
    public boolean release(String key, String owner) {
        return locks.release(key, owner);
    }

    /**
     * {@inheritDoc} One plain read of the key's row (no row lock: it waits for no writer), by the
     * database clock, and for a key held by shared leases a second one of its leases. Bounded by the
     * {@linkplain Builder#statementTimeout statement timeout}.
     */
    @Override
    public Optional<Holder> inspect(String key) {
        if (!capabilities().contains(StoreCapability.INSPECT)) {
            return LockStore.super.inspect(key);
        }
        return locks.inspect(key);
    }

    /**
     * {@inheritDoc} In table mode on PostgreSQL, with Hibernate ORM or EclipseLink (whose pool lends the
     * listening connection), {@link StoreCapability#RELEASE_NOTIFICATION} is added once the store has
     * connected and knows its database.
     */
    @Override
    public Set<StoreCapability> capabilities() {
        return locks.capabilities();
    }

    /**
     * {@inheritDoc} Table mode on PostgreSQL: every release through any store on the table sends
     * {@code pg_notify} of the key on the table's channel ({@code baton_release:} and the table name), in the
     * release's own statement, so only a committed release is told. The listeners of this instance share one
     * listening connection of the persistence unit, on a thread of its own, which reconnects by itself after a
     * drop (notifications sent meanwhile are lost; waiters poll). Waits for the {@code LISTEN} at most the
     * statement timeout.
     *
     * @throws UnsupportedOperationException if the store does not declare {@link StoreCapability#RELEASE_NOTIFICATION},
     *     or if its connections do not unwrap to pgjdbc (a server's data source whose driver the application cannot
     *     see: logged once, {@code BATON-JPA-019})
     */
    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        connector.requireOpen();
        if (!capabilities().contains(StoreCapability.RELEASE_NOTIFICATION)) {
            return LockStore.super.onRelease(listener);
        }
        return locks.onRelease(listener);
    }

    /** @return the listening connection's state, or null before the first {@link #onRelease}; for tests */
    ReleaseListener releaseListener() {
        return locks instanceof TableLocks table ? table.releaseListener() : null;
    }

    /** @return how this store holds its locks */
    public LockMode mode() {
        return locks.mode();
    }

    /**
     * The database this store talks to; connects if it has not yet.
     *
     * @return the database
     * @throws LockStoreException if the database cannot be reached
     */
    public JpaDatabase database() {
        return connector.dialect().database();
    }

    /**
     * The helper for writes fenced by this store's locks, in the caller's own transaction.
     *
     * @return the helper; connects if the store has not yet, to learn the database
     * @throws LockStoreException if the database cannot be reached
     */
    public FencedWrites fencedWrites() {
        locks.requireFencedWrites();
        return FencedWrites.of(database(), settings.table());
    }

    /** @return the table name */
    public String table() {
        return settings.table();
    }

    /** @return the sequence name */
    public String sequence() {
        return settings.sequence();
    }

    /** @return how this store's log lines write lock keys ({@link Builder#logKeys}) */
    public KeyFormat logKeys() {
        return settings.logKeys();
    }

    /** @return the bound of calls that come without one, in milliseconds */
    public long statementTimeoutMillis() {
        return settings.statementTimeoutMillis();
    }

    @Override
    public void close() {
        connector.refuseCalls();
        purger.close();
        locks.close(); // ends its connections before the factory may close
        connector.close();
    }

    @Override
    public String toString() {
        Dialect d = connector.dialectIfConnected();
        return "jpa(" + (mode() == LockMode.TABLE ? "" : "advisory, ")
                + (d == null ? "table " + settings.table() + ", not connected" : d.toString()) + ")";
    }

    /**
     * Settings of a {@link JpaLockStore}.
     *
     * <p>Nested rather than a top-level class because the public API names it {@code JpaLockStore.Builder} (the
     * type that {@link JpaLockStore#builder} returns, in applications' code and the store's factory): moving it
     * would break their sources and binaries. It only collects values; {@link #build} hands them to
     * {@link StoreSettings}, which checks them together and applies the defaults.
     */
    public static final class Builder {

        private final Supplier<EntityManagerFactory> factorySource;
        private final boolean ownsFactory;
        private final DataSource dataSource;
        private TransactionSuspender suspender;
        private String table = Dialect.DEFAULT_TABLE;
        private String sequence = Dialect.DEFAULT_SEQUENCE;
        private SchemaAction schemaAction = SchemaAction.NONE;
        private TransactionRunner runner;
        private long statementTimeoutMillis = DEFAULT_STATEMENT_TIMEOUT.toMillis();
        private LockMode mode = LockMode.TABLE;
        private long purgeAfterMillis;
        private long purgeIntervalMillis;
        private int purgeBatch = Dialect.PURGE_BATCH;
        private KeyFormat logKeys = KeyFormat.PLAIN;

        private Builder(Supplier<EntityManagerFactory> factorySource, boolean ownsFactory, DataSource dataSource) {
            this.factorySource = factorySource;
            this.ownsFactory = ownsFactory;
            this.dataSource = dataSource;
        }

        /**
         * The lock table, default {@code baton_locks}.
         *
         * @param table a plain identifier, optionally {@code schema.table}, no part of it an SQL reserved word
         *     of PostgreSQL, MariaDB or H2
         * @return this builder
         * @throws IllegalArgumentException if it is not a plain identifier, or a part is a reserved word
         */
        public Builder table(String table) {
            this.table = identifier("table", table);
            return this;
        }

        /**
         * The fencing token sequence, default {@code baton_fencing_seq}.
         *
         * @param sequence a plain identifier, optionally {@code schema.sequence}, no part of it an SQL reserved word
         *     of PostgreSQL, MariaDB or H2
         * @return this builder
         * @throws IllegalArgumentException if it is not a plain identifier, or a part is a reserved word
         */
        public Builder sequence(String sequence) {
            this.sequence = identifier("sequence", sequence);
            return this;
        }

        /**
         * What to do with the schema at the first connection, default {@link SchemaAction#NONE}.
         *
         * @param schemaAction the action
         * @return this builder
         */
        public Builder schemaAction(SchemaAction schemaAction) {
            this.schemaAction = Objects.requireNonNull(schemaAction, "schemaAction");
            return this;
        }

        /**
         * How the store gets a transaction of its own, default one {@code RESOURCE_LOCAL} transaction
         * per operation. Only for a store on an entity manager factory ({@link #build} refuses it on a data
         * source: there see {@link #transactionSuspender}).
         *
         * @param runner the runner
         * @return this builder
         */
        public Builder transactionRunner(TransactionRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
            return this;
        }

        /**
         * The bound of calls that come without one of their own, default
         * {@link #DEFAULT_STATEMENT_TIMEOUT}: requests with {@link LockArguments#STORE_BOUND} ({@code acquire},
         * {@code renew}, {@code renewAll}), {@link JpaLockStore#release}, {@code leaveTurn}, {@code inspect},
         * and connecting (with the schema action).
         * Such a call waits for a row lock of another transaction at most this long, and for the
         * database's answer this long plus {@value CallBound#NETWORK_ALLOWANCE_MILLIS} ms.
         *
         * @param timeout at least 1 ms
         * @return this builder
         * @throws IllegalArgumentException if it is shorter than 1 ms or longer than a year
         */
        public Builder statementTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.toMillis() > LockArguments.MAX_DURATION_MILLIS) {
                throw new IllegalArgumentException(
                        "The statement timeout must be from 1 ms to 365 days, not " + timeout);
            }
            this.statementTimeoutMillis = timeout.toMillis();
            return this;
        }

        /**
         * How the store holds its locks, default {@link LockMode#TABLE}. {@link LockMode#ADVISORY} needs
         * PostgreSQL or MariaDB (on another database every operation fails with a
         * {@link dev.baton.LockConfigurationException}) and Hibernate ORM or EclipseLink, whose pool lends
         * the connections that hold the locks. Both modes draw tokens from the same sequence and run the same
         * schema action and checks, so a deployment can switch modes (all instances at once: the two modes do
         * not exclude each other).
         *
         * @param mode the mode
         * @return this builder
         */
        public Builder mode(LockMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Purge rows whose lease ended long ago, default none (rows stay: a release only moves the expiry).
         * Every {@linkplain #purgeInterval purge interval} one instance of those sharing the table (under the
         * lock {@link JpaLockStore#PURGE_KEY}) deletes, in small batches, the rows whose lease (and turn, if any)
         * ended more than this long ago by the database clock ({@link JpaLockStore#purgeExpired}). While it is
         * set, an acquisition's statement waits for a row lock at most the {@linkplain #statementTimeout
         * statement timeout} (then answers not acquired, and the runtime polls again).
         *
         * @param after at least {@link JpaLockStore#minimumPurgeAfter} of the statement timeout (checked by
         *     {@link #build}), at most 365 days
         * @return this builder
         * @throws IllegalArgumentException if it is longer than a year or shorter than 1 ms
         */
        public Builder purgeAfter(Duration after) {
            Objects.requireNonNull(after, "after");
            if (after.compareTo(Duration.ofMillis(1)) < 0 || after.toMillis() > LockArguments.MAX_DURATION_MILLIS) {
                throw new IllegalArgumentException("purge-after must be from 1 ms to 365 days, not " + after);
            }
            this.purgeAfterMillis = after.toMillis();
            return this;
        }

        /**
         * How often the store purges ({@link #purgeAfter}), default half of {@code purge-after}, from 30 s to an
         * hour. The first purge runs one interval after {@link #build}.
         *
         * @param interval from 1 s to 365 days
         * @return this builder
         * @throws IllegalArgumentException if it is shorter than a second or longer than a year
         */
        public Builder purgeInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.compareTo(Duration.ofSeconds(1)) < 0
                    || interval.toMillis() > LockArguments.MAX_DURATION_MILLIS) {
                throw new IllegalArgumentException("purge-interval must be from 1 s to 365 days, not " + interval);
            }
            this.purgeIntervalMillis = interval.toMillis();
            return this;
        }

        /** For tests: rows per purge statement, 1 to 100. */
        Builder purgeBatch(int rows) {
            if (rows < 1 || rows > Dialect.PURGE_BATCH) {
                throw new IllegalArgumentException("purge batch " + rows);
            }
            this.purgeBatch = rows;
            return this;
        }

        /**
         * How a store on a data source keeps its connections out of the caller's JTA transaction, default
         * {@link TransactionSuspender#NONE} (for data sources that never join one). Only for a store on a data
         * source ({@link #build} refuses it on an entity manager factory: there see {@link #transactionRunner}).
         *
         * @param suspender runs the store's work with the caller's transaction suspended
         * @return this builder
         */
        public Builder transactionSuspender(TransactionSuspender suspender) {
            this.suspender = Objects.requireNonNull(suspender, "suspender");
            return this;
        }

        /**
         * How the store's log lines write a lock key, default {@link KeyFormat#PLAIN}: the lines that can carry one
         * ({@code BATON-JPA-001}'s driver text, {@code BATON-JPA-005}'s cause). Baton's runtime sets
         * {@code baton.log.keys} here when it makes the store from the configuration; an application that makes the
         * store as a bean sets it itself.
         *
         * @param logKeys the form
         * @return this builder
         */
        public Builder logKeys(KeyFormat logKeys) {
            this.logKeys = Objects.requireNonNull(logKeys, "logKeys");
            return this;
        }

        /**
         * Creates the store; it does not connect yet.
         *
         * @return the store
         * @throws IllegalStateException if a transaction runner was set on a data source, or a suspender on an
         *     entity manager factory
         */
        public JpaLockStore build() {
            // the builder stays reusable: the settings are checked, and the defaults applied, in a copy
            return new JpaLockStore(new StoreSettings(
                    factorySource,
                    ownsFactory,
                    dataSource,
                    suspender,
                    table,
                    sequence,
                    schemaAction,
                    runner,
                    statementTimeoutMillis,
                    mode,
                    purgeAfterMillis,
                    purgeIntervalMillis,
                    purgeBatch,
                    logKeys));
        }

        private static String identifier(String what, String name) {
            String problem = Identifiers.problem(name);
            if (problem != null) {
                throw new IllegalArgumentException("The lock " + what + " name '" + name + "' " + problem);
            }
            return name;
        }
    }
}
