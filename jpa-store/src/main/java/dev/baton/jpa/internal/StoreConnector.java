package dev.baton.jpa.internal;

import dev.baton.LockException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.LockStoreException;
import dev.baton.jpa.SchemaAction;
import dev.baton.jpa.internal.schema.SchemaCheck;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A store's way to its database: connects lazily (creates the entity manager factory if the store owns it,
 * detects the dialect, runs the schema action and check), and at that moment chooses once how every later
 * statement reaches the database ({@link Path}). Runs each operation with its retries and tells its failures
 * apart: out of time, a transient failure run again, a missing driver or provider, anything else.
 *
 * <p>After the database was down the next operation simply tries to connect again.
 */
public final class StoreConnector {

    /** A deadlock or serialization failure rolls everything back; the statement is run again this often. */
    private static final int MAX_ATTEMPTS = 8;

    private static final int CREATE_ATTEMPTS = 6;

    private static final Pattern MISSING_CLASS = Pattern.compile("Class \\[[\\w.$]+\\] not found");

    private static final System.Logger LOG = System.getLogger("dev.baton.jpa.JpaLockStore");

    /**
     * How an operation's statements reach the database, chosen when the store connects: in autocommit
     * only where the dialect's operations are single atomic statements (PostgreSQL, MariaDB), and only on a
     * data source or under the default runner (a {@link dev.baton.jpa.TransactionRunner} of the application's
     * gives a connection enlisted in its JTA transaction, which must stay as it is: there the statement runs in
     * that transaction, still with its limits in the same round trip).
     */
    private enum Path {
        /** A transaction of its own. */
        TRANSACTION,
        /** One autocommit statement on the transaction's connection. */
        AUTOCOMMIT,
        /**
         * On a connection of the unit's pool, outside the JPA provider's transaction, in the auto-commit mode
         * the pool keeps (switching it costs the driver round trips).
         */
        POOLED,
        /** As {@link #POOLED}, switching auto-commit on (free on pgjdbc while no transaction is open). */
        POOLED_SWITCHED
    }

    /** A store operation on the connection of its transaction. */
    @FunctionalInterface
    public interface Operation<T> {
        /**
         * @param dialect the database's dialect
         * @param connection the connection
         * @param bound the call's bound
         * @return the answer
         * @throws SQLException if a statement failed
         */
        T run(Dialect dialect, Connection connection, CallBound bound) throws SQLException;
    }

    /** The dialect and the path, known together once the store connected. */
    private record Connected(Dialect dialect, Path path) {}

    private final StoreSettings settings;
    private final ReentrantLock setup = new ReentrantLock();
    private volatile EntityManagerFactory factory;
    private volatile Connected connected;
    private volatile boolean closed;

    /** @param settings the store's settings; nothing is connected yet */
    public StoreConnector(StoreSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Runs one operation in a transaction of its own (or one autocommit statement), bounded by
     * {@code maxWaitMillis}; connects first if the store has not yet.
     *
     * @param operation what the operation does, for messages
     * @param key the key, or what the operation is about, for messages
     * @param maxWaitMillis the call's bound
     * @param op the operation
     * @param outOfTime what the operation answers when it ran out of time waiting for a row lock (or for a
     *     deadlock to clear); null: it fails
     * @param <T> the answer's type
     * @return the answer
     * @throws LockStoreException if the store is closed, or the operation failed
     */
    public <T> T execute(String operation, String key, long maxWaitMillis, Operation<T> op, Supplier<T> outOfTime) {
        requireOpen();
        try (CallBound bound = CallBound.open(maxWaitMillis)) {
            Connected now = connected();
            Dialect d = now.dialect();
            for (int attempt = 1; ; attempt++) {
                try {
                    return run(now.path(), c -> op.run(d, c, bound));
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
                            // the driver's text may quote the key (PostgreSQL's DETAIL of a unique violation)
                            JpaMessage.RETRYING.log(
                                    LOG, operation, settings.logKeys().redact(String.valueOf(sql), key));
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

    /**
     * Runs store work on the caller's thread with its JTA transaction suspended (on a data source; on an entity
     * manager factory the store's own transactions keep out of the caller's).
     *
     * @param work the work
     * @param <T> its answer's type
     * @return its answer
     */
    public <T> T outside(Supplier<T> work) {
        return settings.suspender().outsideTransaction(work);
    }

    /**
     * A connection for longer than one operation (advisory lanes, the release listener).
     *
     * @return the connection, in auto-commit mode while the store has it
     * @throws SQLException if none could be had
     */
    public DedicatedConnection dedicatedConnection() throws SQLException {
        if (!settings.onDataSource()) {
            return DedicatedConnection.take(factory());
        }
        try {
            return outside(() -> {
                try {
                    return DedicatedConnection.take(settings.dataSource());
                } catch (SQLException e) {
                    throw new DataSourceJdbc.Failure(e);
                }
            });
        } catch (DataSourceJdbc.Failure e) {
            throw e.sql();
        }
    }

    /**
     * @return whether {@link #dedicatedConnection} can lend connections: on a data source, or on a factory of
     *     Hibernate ORM or EclipseLink once it was created (false before)
     */
    public boolean lendsConnections() {
        EntityManagerFactory f = factory;
        return settings.onDataSource() || f != null && DedicatedConnection.supports(f);
    }

    /**
     * The database's dialect; connects if the store has not yet.
     *
     * @return the dialect
     * @throws LockStoreException if the database cannot be reached or its schema is not right
     */
    public Dialect dialect() {
        return connected().dialect();
    }

    /** @return the dialect if the store has connected, else null; never connects */
    public Dialect dialectIfConnected() {
        Connected c = connected;
        return c == null ? null : c.dialect();
    }

    /**
     * Fails if the store is closed.
     *
     * @throws LockStoreException if it is
     */
    public void requireOpen() {
        if (closed) {
            throw new LockStoreException("The JPA lock store is closed");
        }
    }

    /** @return whether the store is closed (or closing) */
    public boolean isClosed() {
        return closed;
    }

    /** Refuses every later operation; the store then closes what it opened, the factory last ({@link #close}). */
    public void refuseCalls() {
        closed = true;
    }

    /** Closes the entity manager factory if the store created it. */
    public void close() {
        closed = true;
        EntityManagerFactory f = factory;
        factory = null;
        if (settings.ownsFactory() && f != null && f.isOpen()) {
            f.close();
        }
    }

    private Connected connected() {
        Connected c = connected;
        if (c != null) {
            return c;
        }
        setup.lock();
        try {
            if (connected == null) {
                Dialect d = connect();
                connected = new Connected(d, path(d));
            }
            return connected;
        } finally {
            setup.unlock();
        }
    }

    private Path path(Dialect d) {
        if (!d.autocommit()
                || !settings.onDataSource() && settings.runner() != ResourceLocalTransactionRunner.INSTANCE) {
            return Path.TRANSACTION;
        }
        if (!settings.onDataSource() && d.autocommitOnPooledConnection() && DedicatedConnection.supports(factory())) {
            return d.switchesAutocommitFreely() ? Path.POOLED_SWITCHED : Path.POOLED;
        }
        return Path.AUTOCOMMIT;
    }

    private <T> T run(Path path, JdbcWork<T> work) {
        return switch (path) {
            case TRANSACTION -> inTransaction(work);
            case AUTOCOMMIT -> inTransaction(c -> Autocommit.run(c, work));
            case POOLED -> PooledAutocommit.run(factory(), work);
            case POOLED_SWITCHED -> PooledAutocommit.runSwitched(factory(), work);
        };
    }

    private <T> T inTransaction(JdbcWork<T> work) {
        if (settings.onDataSource()) {
            return outside(() -> {
                try {
                    return DataSourceJdbc.inTransaction(settings.dataSource(), work);
                } catch (SQLException e) {
                    throw new DataSourceJdbc.Failure(e);
                }
            });
        }
        return settings.runner().inNewTransaction(factory(), em -> JdbcAccess.withConnection(em, work));
    }

    private Dialect connect() {
        String table = settings.table();
        String sequence = settings.sequence();
        SchemaAction schemaAction = settings.schemaAction();
        // Connecting (and the schema action) gets the statement timeout, whatever the first call's bound.
        try (CallBound bound = CallBound.open(settings.statementTimeoutMillis())) {
            Dialect d = inTransaction(c -> {
                Dialect detected = DialectFactory.detect(c, table, sequence);
                PrivateDatabase.warnIfPrivate(c, "table " + table);
                return detected;
            });
            if (schemaAction == SchemaAction.CREATE) {
                create(d);
            }
            // Under every action, once per store: the objects exist and keep exclusion and fencing.
            SchemaCheck check = SchemaCheck.of(
                    d.database(),
                    new SchemaCheck.Names(
                            table,
                            sequence,
                            d.sharedTable(),
                            SchemaScript.createTable(d.database(), table, sequence, d.sharedTable())));
            inTransaction(c -> {
                d.validate(c);
                check.run(c);
                return null;
            });
            JpaMessage.CONNECTED.log(LOG, d, schemaAction);
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
                                    : schemaAction.name().toLowerCase(Locale.ROOT))
                            + " its schema"
                            + ": " + describe(e),
                    e);
        }
    }

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
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10L << attempt));
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
                EntityManagerFactory created = JpaProvider.own(Objects.requireNonNull(
                        settings.factorySource().get(), "the EntityManagerFactory supplier returned null"));
                JdbcAccess.watch(created);
                factory = created;
            }
            return factory;
        } finally {
            setup.unlock();
        }
    }

    /** @return the missing class's failure among {@code e}'s causes, or null */
    static Throwable missingClass(Throwable e) {
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

    /** @return the first {@link SQLException} among {@code e}'s causes, or null */
    static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    /** @return the root cause's class and message, for a failure's message */
    static String describe(Throwable e) {
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
}
