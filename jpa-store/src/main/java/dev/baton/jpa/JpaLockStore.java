package dev.baton.jpa;

import dev.baton.LockException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.LockStoreException;
import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.Identifiers;
import dev.baton.jpa.internal.JdbcAccess;
import dev.baton.jpa.internal.JdbcWork;
import dev.baton.jpa.internal.ResourceLocalTransactionRunner;
import dev.baton.jpa.internal.schema.SchemaCheck;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import jakarta.persistence.EntityManagerFactory;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The SQL lock store: one row per key in a table, written by one atomic statement per operation,
 * timed by the database's clock, with fencing tokens from a database sequence. PostgreSQL, MariaDB
 * and H2 are supported; the dialect is chosen from the connection's metadata at the first operation.
 *
 * <p>Every operation runs in a transaction of its own ({@link TransactionRunner}), never in the
 * caller's. The store connects lazily: creating it touches nothing, and after the database was down
 * the next operation simply tries again.
 *
 * <p>Create one with {@link #builder(EntityManagerFactory)}, or let {@code baton.store=jpa} create it
 * from configuration.
 */
public final class JpaLockStore implements LockStore {

    private static final Set<StoreCapability> CAPABILITIES =
            EnumSet.of(StoreCapability.PERSISTENT, StoreCapability.REMAINING_LEASE, StoreCapability.BATCH_RENEW);

    /** A deadlock or serialization failure rolls everything back; the statement is run again this often. */
    private static final int MAX_ATTEMPTS = 8;

    private static final Pattern MISSING_CLASS =
            Pattern.compile("Class \\[[\\w.$]+\\] not found");

    private static final System.Logger LOG = System.getLogger(JpaLockStore.class.getName());

    private final Supplier<EntityManagerFactory> factorySource;
    private final boolean ownsFactory;
    private final String table;
    private final String sequence;
    private final SchemaAction schemaAction;
    private final TransactionRunner runner;
    private final ReentrantLock setup = new ReentrantLock();
    private volatile EntityManagerFactory factory;
    private volatile Dialect dialect;
    private volatile boolean closed;

    private JpaLockStore(Builder builder) {
        this.factorySource = builder.factorySource;
        this.ownsFactory = builder.ownsFactory;
        this.table = builder.table;
        this.sequence = builder.sequence;
        this.schemaAction = builder.schemaAction;
        this.runner = builder.runner;
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
        return new Builder(() -> factory, false);
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
        return new Builder(factory, true);
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        return execute("acquire", key, (d, c) -> d.acquire(c, key, owner, ttlMillis));
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        return execute("renew", key, (d, c) -> d.renew(c, key, owner, ttlMillis));
    }

    /**
     * Renews many locks in one transaction of two statements per hundred leases (see the module's
     * README), instead of one transaction per lock.
     */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis) {
        Objects.requireNonNull(leases, "leases");
        LockArguments.requireValidTtl(ttlMillis);
        List<Lease> checked = new ArrayList<>(leases.size());
        for (Lease lease : leases) {
            Objects.requireNonNull(lease, "lease");
            check(lease.key(), lease.owner());
            checked.add(lease);
        }
        if (checked.isEmpty()) {
            return Set.of();
        }
        return execute("renewAll", checked.size() + " leases", (d, c) -> d.renewAll(c, checked, ttlMillis));
    }

    @Override
    public boolean release(String key, String owner) {
        check(key, owner);
        return execute("release", key, (d, c) -> d.release(c, key, owner));
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
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

    @Override
    public void close() {
        closed = true;
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

    @FunctionalInterface
    private interface Operation<T> {
        T run(Dialect dialect, java.sql.Connection connection) throws SQLException;
    }

    private <T> T execute(String operation, String key, Operation<T> op) {
        if (closed) {
            throw new LockStoreException("The JPA lock store is closed");
        }
        Dialect d = dialect();
        for (int attempt = 1; ; attempt++) {
            try {
                return inTransaction(c -> op.run(d, c));
            } catch (LockException e) {
                throw e;
            } catch (RuntimeException e) {
                SQLException sql = sqlCause(e);
                if (attempt < MAX_ATTEMPTS && sql != null && d.isTransient(sql)) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "BATON-JPA-001 retrying " + operation + " after " + sql);
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 2_000_000L * attempt));
                    continue;
                }
                throw new LockStoreException("The JPA lock store (" + d + ") failed to " + operation + " key '"
                        + abbreviate(key) + "': " + describe(e), e);
            }
        }
    }

    private <T> T inTransaction(JdbcWork<T> work) {
        return runner.inNewTransaction(factory(), em -> JdbcAccess.withConnection(em, work));
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
        try {
            Dialect d = inTransaction(c -> Dialect.detect(c, table, sequence));
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
            LOG.log(System.Logger.Level.DEBUG, () -> "BATON-JPA-002 connected: " + d + ", schema action " + schemaAction);
            return d;
        } catch (LockException e) {
            throw e;
        } catch (RuntimeException e) {
            Throwable missing = missingClass(e);
            if (missing != null) {
                throw new LockStoreDriverNotFoundException("jpa", "the JDBC driver or JPA provider class that the"
                        + " persistence unit names (" + missing.getMessage().strip() + ")", e);
            }
            throw new LockStoreException("The JPA lock store (table " + table + ") cannot connect to its database"
                    + " or " + (schemaAction == SchemaAction.NONE ? "check" : schemaAction.name().toLowerCase(java.util.Locale.ROOT)) + " its schema"
                    + ": " + describe(e), e);
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
                java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10L << attempt));
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
                factory = Objects.requireNonNull(factorySource.get(), "the EntityManagerFactory supplier returned null");
            }
            return factory;
        } finally {
            setup.unlock();
        }
    }

    private static Throwable missingClass(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // EclipseLink reports a missing driver as "Configuration error.  Class [x] not found." with no cause.
            if (t instanceof ClassNotFoundException || t instanceof NoClassDefFoundError
                    || t.getMessage() != null && MISSING_CLASS.matcher(t.getMessage()).find()) {
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
        return "jpa(" + (d == null ? "table " + table + ", not connected" : d.toString()) + ")";
    }

    /** Settings of a {@link JpaLockStore}. */
    public static final class Builder {

        private final Supplier<EntityManagerFactory> factorySource;
        private final boolean ownsFactory;
        private String table = Dialect.DEFAULT_TABLE;
        private String sequence = Dialect.DEFAULT_SEQUENCE;
        private SchemaAction schemaAction = SchemaAction.NONE;
        private TransactionRunner runner = ResourceLocalTransactionRunner.INSTANCE;

        private Builder(Supplier<EntityManagerFactory> factorySource, boolean ownsFactory) {
            this.factorySource = factorySource;
            this.ownsFactory = ownsFactory;
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
         * per operation.
         *
         * @param runner the runner
         * @return this builder
         */
        public Builder transactionRunner(TransactionRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
            return this;
        }

        /**
         * Creates the store; it does not connect yet.
         *
         * @return the store
         */
        public JpaLockStore build() {
            return new JpaLockStore(this);
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
