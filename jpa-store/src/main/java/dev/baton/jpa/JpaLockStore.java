package dev.baton.jpa;

import dev.baton.LockException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.LockStoreException;
import dev.baton.jpa.internal.Autocommit;
import dev.baton.jpa.internal.CallBound;
import dev.baton.jpa.internal.DataSourceJdbc;
import dev.baton.jpa.internal.DedicatedConnection;
import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.DialectFactory;
import dev.baton.jpa.internal.Identifiers;
import dev.baton.jpa.internal.JdbcAccess;
import dev.baton.jpa.internal.JdbcWork;
import dev.baton.jpa.internal.JpaProvider;
import dev.baton.jpa.internal.PooledAutocommit;
import dev.baton.jpa.internal.PrivateDatabase;
import dev.baton.jpa.internal.ReleaseListener;
import dev.baton.jpa.internal.ResourceLocalTransactionRunner;
import dev.baton.jpa.internal.advisory.AdvisoryLocks;
import dev.baton.jpa.internal.schema.SchemaCheck;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import jakarta.persistence.EntityManagerFactory;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The SQL lock store: one row per key in a table, written by one atomic statement per operation,
 * timed by the database's clock, with fencing tokens from a database sequence. PostgreSQL, MariaDB
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
 * with a {@link LockStoreException} instead of holding it. Calls without a bound of their own (the
 * three-argument forms, {@link #release}) get the {@linkplain Builder#statementTimeout statement
 * timeout}.
 *
 * <p>In {@linkplain LockMode#ADVISORY advisory mode} ({@link Builder#mode}) the store holds each key as a
 * database session lock (PostgreSQL, MariaDB) on a connection of this instance instead of a row, so a holder
 * whose process dies or whose connection drops frees its keys at once; it then declares only
 * {@link StoreCapability#ENDS_WITH_CONNECTION}. Tokens come from the same sequence in both modes.
 *
 * <p>With {@link Builder#purgeAfter} the store deletes rows whose lease ended long ago ({@link #purgeExpired}).
 *
 * <p>Create one with {@link #builder(DataSource)} or {@link #builder(EntityManagerFactory)}, or let
 * {@code baton.store=jpa} create it from configuration.
 */
public final class JpaLockStore implements LockStore {

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.WAITING_TURNS,
            StoreCapability.INSPECT);

    /** Table mode on PostgreSQL: releases are notified ({@code LISTEN/NOTIFY}). */
    private static final Set<StoreCapability> NOTIFYING_CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.WAITING_TURNS,
            StoreCapability.INSPECT,
            StoreCapability.RELEASE_NOTIFICATION);

    /** Advisory mode: locks end with the instance's connections; only tokens outlive it. */
    private static final Set<StoreCapability> ADVISORY_CAPABILITIES = EnumSet.of(StoreCapability.ENDS_WITH_CONNECTION);

    /** A deadlock or serialization failure rolls everything back; the statement is run again this often. */
    private static final int MAX_ATTEMPTS = 8;

    /** The default bound of a call that comes without one. */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * The key of the lock under which one instance at a time purges a table ({@link Builder#purgeAfter}):
     * reserved, do not lock it yourself.
     */
    public static final String PURGE_KEY = "__baton_jpa_purge__";

    /** The purges of one run at most, so one run ends; the next run goes on. */
    private static final int MAX_PURGE_BATCHES = 1_000;

    private static final Pattern MISSING_CLASS = Pattern.compile("Class \\[[\\w.$]+\\] not found");

    private static final System.Logger LOG = System.getLogger(JpaLockStore.class.getName());

    private final Supplier<EntityManagerFactory> factorySource;
    private final boolean ownsFactory;
    /** Instead of an entity manager factory: plain JDBC on the data source's connections. */
    private final DataSource dataSource;

    private final TransactionSuspender suspender;
    private final String table;
    private final String sequence;
    private final SchemaAction schemaAction;
    private final TransactionRunner runner;
    private final long statementTimeoutMillis;
    private final LockMode mode;
    /** 0: no purge. */
    private final long purgeAfterMillis;

    private final long purgeIntervalMillis;
    private final int purgeBatch;
    private final String purgeOwner = "purge-" + UUID.randomUUID();
    private final ScheduledExecutorService purger;
    /** For tests: runs between the read of a batch's candidates and their delete. */
    private volatile Consumer<List<String>> beforePurgeDelete = keys -> {};

    private final ReentrantLock setup = new ReentrantLock();
    private volatile EntityManagerFactory factory;
    private volatile Dialect dialect;
    private volatile AdvisoryLocks advisory;
    private volatile ReleaseListener releases;
    private volatile boolean closed;

    private JpaLockStore(Builder builder) {
        this.factorySource = builder.factorySource;
        this.ownsFactory = builder.ownsFactory;
        this.dataSource = builder.dataSource;
        this.suspender = builder.suspender != null ? builder.suspender : TransactionSuspender.NONE;
        this.table = builder.table;
        this.sequence = builder.sequence;
        this.schemaAction = builder.schemaAction;
        this.runner = builder.runner != null ? builder.runner : ResourceLocalTransactionRunner.INSTANCE;
        this.statementTimeoutMillis = builder.statementTimeoutMillis;
        this.mode = builder.mode;
        this.purgeAfterMillis = builder.purgeAfterMillis;
        this.purgeIntervalMillis = purgeAfterMillis == 0
                ? 0
                : builder.purgeIntervalMillis > 0
                        ? builder.purgeIntervalMillis
                        : defaultPurgeInterval(purgeAfterMillis);
        this.purgeBatch = builder.purgeBatch;
        if (purgeAfterMillis > 0) {
            String name = "baton-jpa-purge[" + table + "]";
            purger = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
            purger.scheduleWithFixedDelay(
                    this::scheduledPurge, purgeIntervalMillis, purgeIntervalMillis, TimeUnit.MILLISECONDS);
        } else {
            purger = null;
        }
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
        long statement = statementTimeout.toMillis() + CallBound.NETWORK_ALLOWANCE_MILLIS;
        return Duration.ofMillis(Math.max(60_000L, Math.multiplyExact(statement, 10L)));
    }

    /** Half of {@code purge-after}, from 30 s to an hour. */
    static long defaultPurgeInterval(long purgeAfterMillis) {
        return Math.max(30_000L, Math.min(3_600_000L, purgeAfterMillis / 2));
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

    /** {@inheritDoc} Bounded by the {@linkplain Builder#statementTimeout statement timeout}. */
    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        return acquire(key, owner, ttlMillis, statementTimeoutMillis);
    }

    /**
     * {@inheritDoc} A row lock that another transaction holds on the key (a new holder waits for the
     * fenced writes of the last one) is waited for at most {@code maxWaitMillis}; then: not acquired.
     */
    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        requireValidWait(maxWaitMillis);
        if (mode == LockMode.ADVISORY) {
            return outside(() -> advisory().acquire(key, owner, ttlMillis, maxWaitMillis));
        }
        return execute(
                "acquire",
                key,
                acquisitionWait(maxWaitMillis),
                (d, c, b) -> d.acquire(c, key, owner, ttlMillis, null, b),
                AcquireResult::notAcquired);
    }

    /**
     * {@inheritDoc} The turn is kept in the key's row (columns {@code turn_waiter}, {@code turn_since},
     * {@code turn_until}), by the database clock, in the same statement as the acquisition. Bounded as
     * {@link #acquire(String, String, long, long)}: out of time, the answer is not acquired (and the turn
     * unchanged).
     */
    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        requireValidWait(maxWaitMillis);
        Objects.requireNonNull(turn, "turn");
        if (mode == LockMode.ADVISORY) {
            return outside(() -> advisory().acquire(key, owner, ttlMillis, maxWaitMillis)); // no turns in this mode
        }
        return execute(
                "acquire",
                key,
                acquisitionWait(maxWaitMillis),
                (d, c, b) -> d.acquire(c, key, owner, ttlMillis, turn, b),
                AcquireResult::notAcquired);
    }

    /**
     * How long an acquisition's statement may wait for a row lock: its call's bound, or with a purge at most
     * the statement timeout (an acquisition then answers not acquired and the runtime polls again), so that
     * no acquisition's statement runs anywhere near {@code purge-after} ({@link #minimumPurgeAfter}).
     */
    private long acquisitionWait(long maxWaitMillis) {
        return purgeAfterMillis > 0 ? Math.min(maxWaitMillis, statementTimeoutMillis) : maxWaitMillis;
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
        if (purgeAfterMillis == 0) {
            throw new IllegalStateException("The JPA lock store has no purge-after: it does not purge");
        }
        long lease = 4 * (statementTimeoutMillis + CallBound.NETWORK_ALLOWANCE_MILLIS) + 30_000L;
        if (!acquire(PURGE_KEY, purgeOwner, lease, 0).isAcquired()) {
            return OptionalLong.empty();
        }
        try {
            long deleted = 0;
            for (int batch = 0; batch < MAX_PURGE_BATCHES; batch++) {
                if (batch > 0 && !renew(PURGE_KEY, purgeOwner, lease, statementTimeoutMillis)) {
                    break; // the purge lock is lost (a stall): another instance may go on
                }
                List<String> keys = execute(
                        "purge",
                        PURGE_KEY,
                        statementTimeoutMillis,
                        (d, c, b) -> d.purgeCandidates(c, purgeAfterMillis, purgeBatch, b),
                        null);
                if (keys.isEmpty()) {
                    break;
                }
                beforePurgeDelete.accept(List.copyOf(keys));
                deleted += execute(
                        "purge",
                        PURGE_KEY,
                        statementTimeoutMillis,
                        (d, c, b) -> d.purge(c, keys, purgeAfterMillis, b),
                        null);
                if (keys.size() < purgeBatch) {
                    break;
                }
            }
            return OptionalLong.of(deleted);
        } finally {
            try {
                release(PURGE_KEY, purgeOwner);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "BATON-JPA-018 could not release the purge lock: " + e);
            }
        }
    }

    private void scheduledPurge() {
        if (closed) {
            return;
        }
        try {
            OptionalLong deleted = purgeExpired();
            LOG.log(
                    System.Logger.Level.DEBUG,
                    () -> "BATON-JPA-017 purge of " + table + ": "
                            + (deleted.isPresent() ? deleted.getAsLong() + " rows" : "another instance purges"));
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "BATON-JPA-014 the purge of " + table + " failed (the next one runs in " + purgeIntervalMillis
                                + " ms): " + e);
            }
        }
    }

    /** @return {@code purge-after} in milliseconds, 0 when the store does not purge */
    public long purgeAfterMillis() {
        return purgeAfterMillis;
    }

    /** @return how often the store purges, in milliseconds, 0 when it does not */
    public long purgeIntervalMillis() {
        return purgeIntervalMillis;
    }

    /** For tests: runs between the read of each batch's candidates and their delete. */
    void beforePurgeDelete(Consumer<List<String>> hook) {
        this.beforePurgeDelete = Objects.requireNonNull(hook);
    }

    /**
     * {@inheritDoc} One compare-and-set of the key's turn columns; the lock columns are left alone.
     * Bounded by the {@linkplain Builder#statementTimeout statement timeout}, like {@link #release}.
     */
    @Override
    public boolean leaveTurn(String key, String waiter) {
        check(key, waiter);
        if (mode == LockMode.ADVISORY) {
            return false;
        }
        return execute(
                "leave the turn of", key, statementTimeoutMillis, (d, c, b) -> d.leaveTurn(c, key, waiter, b), null);
    }

    /** {@inheritDoc} Bounded by the {@linkplain Builder#statementTimeout statement timeout}. */
    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        return renew(key, owner, ttlMillis, statementTimeoutMillis);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        requireValidWait(maxWaitMillis);
        if (mode == LockMode.ADVISORY) {
            return outside(() -> advisory().renew(key, owner, ttlMillis, Math.max(1, maxWaitMillis)));
        }
        return execute("renew", key, maxWaitMillis, (d, c, b) -> d.renew(c, key, owner, ttlMillis, b), null);
    }

    /**
     * Renews many locks in a few statements instead of one call per lock (see docs/internals.md): on
     * PostgreSQL one autocommit statement per thousand leases, on MariaDB one per thousand (and a read for a
     * batch in which a lease was lost), on H2 one transaction of two statements per hundred. Bounded by the {@linkplain Builder#statementTimeout statement timeout}.
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis) {
        return renewAll(leases, ttlMillis, statementTimeoutMillis);
    }

    /**
     * {@inheritDoc} As {@link #renewAll(Collection, long)}: if a row of one of the leases stays locked by
     * another transaction longer than {@code maxWaitMillis}, the whole call fails (on PostgreSQL, the batches
     * before it may have been renewed: each commits on its own; a lease renewed and not reported is only
     * held a little longer).
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        Objects.requireNonNull(leases, "leases");
        LockArguments.requireValidTtl(ttlMillis);
        requireValidWait(maxWaitMillis);
        List<Lease> checked = new ArrayList<>(leases.size());
        for (Lease lease : leases) {
            Objects.requireNonNull(lease, "lease");
            check(lease.key(), lease.owner());
            checked.add(lease);
        }
        if (checked.isEmpty()) {
            return Set.of();
        }
        if (mode == LockMode.ADVISORY) {
            return outside(() -> renewEach(checked, ttlMillis, maxWaitMillis));
        }
        return execute(
                "renewAll",
                checked.size() + " leases",
                maxWaitMillis,
                (d, c, b) -> d.renewAll(c, checked, ttlMillis, b),
                null);
    }

    /** {@inheritDoc} Bounded by the {@linkplain Builder#statementTimeout statement timeout}. */
    @Override
    public boolean release(String key, String owner) {
        check(key, owner);
        if (mode == LockMode.ADVISORY) {
            return outside(() -> advisory().release(key, owner));
        }
        return execute("release", key, statementTimeoutMillis, (d, c, b) -> d.release(c, key, owner, b), null);
    }

    /**
     * {@inheritDoc} One plain read of the key's row (no row lock: it waits for no writer), by the
     * database clock. Bounded by the {@linkplain Builder#statementTimeout statement timeout}.
     */
    @Override
    public Optional<Holder> inspect(String key) {
        LockArguments.requireValidKey(key, false);
        if (mode == LockMode.ADVISORY) {
            return LockStore.super.inspect(key);
        }
        return execute("inspect", key, statementTimeoutMillis, (d, c, b) -> d.inspect(c, key, b), null);
    }

    /**
     * {@inheritDoc} In table mode on PostgreSQL, with Hibernate ORM or EclipseLink (whose pool lends the
     * listening connection), {@link StoreCapability#RELEASE_NOTIFICATION} is added once the store has
     * connected and knows its database.
     */
    @Override
    public Set<StoreCapability> capabilities() {
        if (mode == LockMode.ADVISORY) {
            return ADVISORY_CAPABILITIES;
        }
        return notifies() ? NOTIFYING_CAPABILITIES : CAPABILITIES;
    }

    private boolean notifies() {
        Dialect d = dialect;
        if (d == null || d.releaseChannel().isEmpty()) {
            return false;
        }
        EntityManagerFactory f = factory;
        return dataSource != null || f != null && DedicatedConnection.supports(f);
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
        Objects.requireNonNull(listener, "listener");
        if (closed) {
            throw new LockStoreException("The JPA lock store is closed");
        }
        if (!notifies()) {
            return LockStore.super.onRelease(listener);
        }
        ReleaseListener r = releases;
        if (r == null) {
            setup.lock();
            try {
                if (releases == null) {
                    releases = new ReleaseListener(
                            this::dedicatedConnection, dialect.releaseChannel().orElseThrow(), statementTimeoutMillis);
                }
                r = releases;
            } finally {
                setup.unlock();
            }
        }
        return r.add(listener);
    }

    /** @return the listening connection's state, or null before the first {@link #onRelease}; for tests */
    ReleaseListener releaseListener() {
        return releases;
    }

    /** @return how this store holds its locks */
    public LockMode mode() {
        return mode;
    }

    /**
     * The database this store talks to; connects if it has not yet.
     *
     * @return the database
     * @throws LockStoreException if the database cannot be reached
     */
    public JpaDatabase database() {
        return dialect().database();
    }

    /**
     * The helper for writes fenced by this store's locks, in the caller's own transaction.
     *
     * @return the helper; connects if the store has not yet, to learn the database
     * @throws LockStoreException if the database cannot be reached
     */
    public FencedWrites fencedWrites() {
        if (mode == LockMode.ADVISORY) {
            throw new IllegalStateException(
                    "Fenced writes check the lock table, which the advisory mode does not write:"
                            + " fence with the token itself (the fence column of docs/user-guide.md, Fencing tokens)");
        }
        return FencedWrites.of(database(), table);
    }

    /** @return the table name */
    public String table() {
        return table;
    }

    /** @return the sequence name */
    public String sequence() {
        return sequence;
    }

    /** @return the bound of calls that come without one, in milliseconds */
    public long statementTimeoutMillis() {
        return statementTimeoutMillis;
    }

    @Override
    public void close() {
        closed = true;
        if (purger != null) {
            purger.shutdownNow();
        }
        ReleaseListener r = releases;
        if (r != null) {
            r.close(); // ends its connection before the factory may close
        }
        AdvisoryLocks a = advisory;
        if (a != null) {
            a.close(); // frees its locks and gives its connections back before the factory may close
        }
        EntityManagerFactory f = factory;
        factory = null;
        if (ownsFactory && f != null && f.isOpen()) {
            f.close();
        }
    }

    private static void check(String key, String owner) {
        // PostgreSQL text cannot hold U+0000; every database rejects it alike.
        LockArguments.requireValidKey(key, false);
        LockArguments.requireValidOwner(owner);
    }

    private static void requireValidWait(long maxWaitMillis) {
        if (maxWaitMillis < 0) {
            throw new IllegalArgumentException("maxWaitMillis must be 0 or more, not " + maxWaitMillis);
        }
    }

    @FunctionalInterface
    private interface Operation<T> {
        T run(Dialect dialect, java.sql.Connection connection, CallBound bound) throws SQLException;
    }

    /**
     * Runs one operation in a transaction of its own, bounded by {@code maxWaitMillis}.
     *
     * @param outOfTime what the operation answers when it ran out of time waiting for a row lock (or
     *     for a deadlock to clear); null: it fails
     */
    private <T> T execute(String operation, String key, long maxWaitMillis, Operation<T> op, Supplier<T> outOfTime) {
        if (closed) {
            throw new LockStoreException("The JPA lock store is closed");
        }
        try (CallBound bound = CallBound.open(maxWaitMillis)) {
            Dialect d = dialect();
            for (int attempt = 1; ; attempt++) {
                try {
                    return run(d, c -> op.run(d, c, bound));
                } catch (LockException e) {
                    throw e;
                } catch (RuntimeException e) {
                    SQLException sql = sqlCause(e);
                    if (sql != null && d.isLockTimeout(sql)) {
                        if (outOfTime != null) {
                            return outOfTime.get();
                        }
                        throw new LockStoreException(
                                "The JPA lock store (" + d + ") could not " + operation + " key '"
                                        + abbreviate(key) + "' within " + maxWaitMillis
                                        + " ms: another transaction holds its"
                                        + " row (on MariaDB and H2, a fenced write of the holder's own that is still open): "
                                        + describe(e),
                                e);
                    }
                    if (sql != null && d.isTransient(sql)) {
                        if (attempt < MAX_ATTEMPTS && (!bound.expired() || d.isGlitch(sql))) {
                            LOG.log(
                                    System.Logger.Level.DEBUG,
                                    () -> "BATON-JPA-001 retrying " + operation + " after " + sql);
                            long pause = ThreadLocalRandom.current().nextLong(100_000, 2_000_000L * attempt);
                            LockSupport.parkNanos(
                                    Math.min(pause, TimeUnit.MILLISECONDS.toNanos(bound.remainingMillis())));
                            continue;
                        }
                        if (outOfTime != null) {
                            return outOfTime.get(); // others are taking the key at this moment
                        }
                    }
                    throw new LockStoreException(
                            "The JPA lock store (" + d + ") failed to " + operation + " key '"
                                    + abbreviate(key) + "': " + describe(e)
                                    + (bound.expired()
                                            ? " (the call's bound of " + maxWaitMillis + " ms and "
                                                    + CallBound.NETWORK_ALLOWANCE_MILLIS
                                                    + " ms for the round trip had passed)"
                                            : ""),
                            e);
                }
            }
        }
    }

    /** Advisory mode: the time left of the call bounds each renewal in turn. */
    private Set<Lease> renewEach(List<Lease> leases, long ttlMillis, long maxWaitMillis) {
        AdvisoryLocks a = advisory();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        Set<Lease> renewed = new java.util.HashSet<>();
        for (Lease lease : leases) {
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            if (a.renew(lease.key(), lease.owner(), ttlMillis, left)) {
                renewed.add(lease);
            }
        }
        return renewed;
    }

    /** The advisory locks of this instance, once the store connected (schema checked, database known). */
    private AdvisoryLocks advisory() {
        if (closed) {
            throw new LockStoreException("The JPA lock store is closed");
        }
        AdvisoryLocks a = advisory;
        if (a != null) {
            return a;
        }
        Dialect d = dialect();
        setup.lock();
        try {
            if (advisory == null) {
                advisory = new AdvisoryLocks(
                        this::dedicatedConnection, d.database(), table, sequence, statementTimeoutMillis);
            }
            return advisory;
        } finally {
            setup.unlock();
        }
    }

    /**
     * Whether an operation runs in autocommit: one statement, one round trip, no COMMIT. Only where the
     * dialect's operations are single atomic statements (PostgreSQL, MariaDB), and only on a data source or
     * under the default runner: a {@link TransactionRunner} of the application's (JTA) gives a connection
     * enlisted in its transaction, which must stay as it is; there the statement runs in that transaction,
     * still with its limits in the same round trip.
     */
    private boolean inAutocommit(Dialect d) {
        return d.autocommit() && (dataSource != null || runner == ResourceLocalTransactionRunner.INSTANCE);
    }

    /**
     * Runs one operation: in autocommit where the dialect allows it (on a pooled connection outside the JPA
     * provider's transaction where switching autocommit costs the driver round trips), else in a transaction.
     */
    private <T> T run(Dialect d, JdbcWork<T> work) {
        if (!inAutocommit(d)) {
            return inTransaction(work);
        }
        if (dataSource == null && d.autocommitOnPooledConnection()) {
            EntityManagerFactory f = factory();
            if (DedicatedConnection.supports(f)) {
                return d.switchesAutocommitFreely()
                        ? PooledAutocommit.runSwitched(f, work)
                        : PooledAutocommit.run(f, work);
            }
        }
        return inTransaction(c -> Autocommit.run(c, work));
    }

    private <T> T inTransaction(JdbcWork<T> work) {
        if (dataSource != null) {
            return outside(() -> {
                try {
                    return DataSourceJdbc.inTransaction(dataSource, work);
                } catch (SQLException e) {
                    throw new DataSourceJdbc.Failure(e);
                }
            });
        }
        return runner.inNewTransaction(factory(), em -> JdbcAccess.withConnection(em, work));
    }

    /** Runs store work on the caller's thread with its JTA transaction suspended (data source only). */
    private <T> T outside(Supplier<T> work) {
        return suspender.outsideTransaction(work);
    }

    /** A connection for longer than one operation (advisory lanes, the release listener). */
    private DedicatedConnection dedicatedConnection() throws SQLException {
        if (dataSource == null) {
            return DedicatedConnection.take(factory());
        }
        try {
            return outside(() -> {
                try {
                    return DedicatedConnection.take(dataSource);
                } catch (SQLException e) {
                    throw new DataSourceJdbc.Failure(e);
                }
            });
        } catch (DataSourceJdbc.Failure e) {
            throw e.sql();
        }
    }

    private Dialect dialect() {
        Dialect d = dialect;
        if (d != null) {
            return d;
        }
        setup.lock();
        try {
            if (dialect == null) {
                dialect = connect();
            }
            return dialect;
        } finally {
            setup.unlock();
        }
    }

    private Dialect connect() {
        // Connecting (and the schema action) gets the statement timeout, whatever the first call's bound.
        try (CallBound bound = CallBound.open(statementTimeoutMillis)) {
            Dialect d = inTransaction(c -> {
                Dialect detected = DialectFactory.detect(c, table, sequence);
                PrivateDatabase.warnIfPrivate(c, "table " + table);
                return detected;
            });
            if (schemaAction == SchemaAction.CREATE) {
                create(d);
            }
            // Under every action, once per store: the objects exist and keep exclusion and fencing.
            SchemaCheck check = SchemaCheck.of(d.database(), table, sequence);
            inTransaction(c -> {
                d.validate(c);
                check.run(c);
                return null;
            });
            LOG.log(
                    System.Logger.Level.DEBUG,
                    () -> "BATON-JPA-002 connected: " + d + ", schema action " + schemaAction);
            return d;
        } catch (LockException e) {
            throw e;
        } catch (RuntimeException e) {
            Throwable missing = missingClass(e);
            if (missing != null) {
                throw new LockStoreDriverNotFoundException(
                        "jpa",
                        "the JDBC driver or JPA provider class that the" + " persistence unit names ("
                                + missing.getMessage().strip() + ")",
                        e);
            }
            throw new LockStoreException(
                    "The JPA lock store (table " + table + ") cannot connect to its database"
                            + " or "
                            + (schemaAction == SchemaAction.NONE
                                    ? "check"
                                    : schemaAction.name().toLowerCase(java.util.Locale.ROOT))
                            + " its schema"
                            + ": " + describe(e),
                    e);
        }
    }

    private static final int CREATE_ATTEMPTS = 6;

    private void create(Dialect d) {
        RuntimeException failure = null;
        for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
            try {
                inTransaction(c -> {
                    d.create(c);
                    return null;
                });
                return;
            } catch (RuntimeException e) {
                // Another instance may be creating the same objects at this moment (H2 and MariaDB do not
                // serialize CREATE ... IF NOT EXISTS): it may have made the sequence but not yet the table.
                // Every statement is idempotent, so run them again once its work is committed.
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(
                        java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10L << attempt));
            }
        }
        try {
            inTransaction(c -> {
                d.validate(c);
                return null;
            });
        } catch (RuntimeException again) {
            failure.addSuppressed(again);
            throw failure;
        }
    }

    private EntityManagerFactory factory() {
        EntityManagerFactory f = factory;
        if (f != null) {
            return f;
        }
        setup.lock();
        try {
            if (factory == null) {
                // the provider's own factory, also behind a CDI client proxy: its provider decides the store's paths
                EntityManagerFactory created = JpaProvider.own(
                        Objects.requireNonNull(factorySource.get(), "the EntityManagerFactory supplier returned null"));
                JdbcAccess.watch(created);
                factory = created;
            }
            return factory;
        } finally {
            setup.unlock();
        }
    }

    private static Throwable missingClass(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // EclipseLink reports a missing driver as "Configuration error.  Class [x] not found." with no cause.
            if (t instanceof ClassNotFoundException
                    || t instanceof NoClassDefFoundError
                    || t.getMessage() != null
                            && MISSING_CLASS.matcher(t.getMessage()).find()) {
                return t;
            }
        }
        return null;
    }

    private static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static String abbreviate(String key) {
        return key.length() <= 80 ? key : key.substring(0, 80) + "...";
    }

    @Override
    public String toString() {
        Dialect d = dialect;
        return "jpa(" + (mode == LockMode.ADVISORY ? "advisory, " : "")
                + (d == null ? "table " + table + ", not connected" : d.toString()) + ")";
    }

    /** Settings of a {@link JpaLockStore}. */
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
         * {@link #DEFAULT_STATEMENT_TIMEOUT}: {@link JpaLockStore#release}, the three-argument
         * {@code acquire}, {@code renew} and {@code renewAll}, and connecting (with the schema action).
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
         * Creates the store; it does not connect yet.
         *
         * @return the store
         * @throws IllegalStateException if a transaction runner was set on a data source, or a suspender on an
         *     entity manager factory
         */
        public JpaLockStore build() {
            if (dataSource != null && runner != null) {
                throw new IllegalStateException("A store on a data source runs its own JDBC transactions: a"
                        + " TransactionRunner is for stores on an EntityManagerFactory (use transactionSuspender)");
            }
            if (dataSource == null && suspender != null) {
                throw new IllegalStateException("A TransactionSuspender is for stores on a data source; on an"
                        + " EntityManagerFactory use a TransactionRunner");
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
            return new JpaLockStore(this); // the builder stays reusable: defaults are applied by the store
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
