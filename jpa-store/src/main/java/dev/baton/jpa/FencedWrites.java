package dev.baton.jpa;

import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.DialectFactory;
import dev.baton.jpa.internal.Identifiers;
import dev.baton.jpa.internal.JdbcAccess;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.util.Objects;

/**
 * Writes to application data that only happen while the writer's lock is still its own: the
 * statement carries a condition on the lock table that holds only if the writer's fencing token is
 * still the key's current token and its lease is live, by the database clock. The check and the write
 * are one statement, in the <em>caller's</em> transaction (unlike the store's own statements).
 *
 * <p><b>A fenced write is ordered before the next acquisition of its key, or writes nothing.</b> The
 * condition locks the key's row until the caller's transaction ends ({@code FOR KEY SHARE} on
 * PostgreSQL, {@code LOCK IN SHARE MODE} on MariaDB, {@code FOR UPDATE} on H2), and a new holder's
 * takeover waits for that lock: once the check passed, the key does not change hands before the
 * transaction commits or rolls back, even if the statement then waits for other rows or the lease
 * ends meanwhile. Keep such transactions short (well under the ttl): while one is open, no one else
 * acquires the key, and on MariaDB and H2 the holder's own renewals wait for it too. Under
 * PostgreSQL's {@code REPEATABLE READ} or {@code SERIALIZABLE}, a takeover after the transaction's
 * snapshot makes the statement fail with a serialization failure.
 *
 * <pre>{@code
 * FencedWrites fenced = store.fencedWrites();
 * int rows = fenced.executeUpdate(em, "order:42", lock.fencingToken(),
 *         "UPDATE orders SET status = ?1 WHERE id = ?2 AND {fence}", "SHIPPED", 42L);
 * if (rows == 0) { ... the lock was lost (or the order does not exist) ... }
 * }</pre>
 *
 * <p>The statement is native SQL with JPA positional parameters {@code ?1 ... ?n}; it must contain
 * {@value #FENCE} exactly once where a boolean condition may stand. The helper replaces it with
 * {@code EXISTS (SELECT 1 FROM <lock table> ... )} and binds the key and token as parameters
 * {@code ?n+1} and {@code ?n+2}. The key is the key as the store saw it (with the lock manager's
 * prefix, if one is configured).
 */
public final class FencedWrites {

    /** The placeholder for the fence condition in a statement. */
    public static final String FENCE = "{fence}";

    private final Dialect dialect;

    private FencedWrites(Dialect dialect) {
        this.dialect = dialect;
    }

    /**
     * The helper for a database and lock table (when no store instance is at hand).
     *
     * @param database the database
     * @param table the lock table, a plain identifier
     * @return the helper
     */
    public static FencedWrites of(JpaDatabase database, String table) {
        Objects.requireNonNull(database, "database");
        if (!Identifiers.isValid(table)) {
            throw new IllegalArgumentException("The lock table name '" + table + "' is not " + Identifiers.rule());
        }
        return new FencedWrites(DialectFactory.create(database, table, Dialect.DEFAULT_SEQUENCE));
    }

    /**
     * The helper for the database an entity manager of the application talks to, for applications
     * that configure the store ({@code baton.store=jpa}) rather than build it: the database is read
     * from the entity manager's connection, in its current transaction. Create it once and keep it.
     *
     * @param em an entity manager on the database that holds the lock table (e.g. the container's
     *     {@code @PersistenceContext}, inside a transaction)
     * @param table the lock table, a plain identifier, as configured by {@code baton.jpa.table}
     * @return the helper
     * @throws dev.baton.LockConfigurationException if the database is not one the store supports
     */
    public static FencedWrites forDatabaseOf(EntityManager em, String table) {
        Objects.requireNonNull(em, "em");
        if (!Identifiers.isValid(table)) {
            throw new IllegalArgumentException("The lock table name '" + table + "' is not " + Identifiers.rule());
        }
        return new FencedWrites(JdbcAccess.withConnection(
                em, connection -> DialectFactory.detect(connection, table, Dialect.DEFAULT_SEQUENCE)));
    }

    /**
     * {@link #forDatabaseOf(EntityManager, String)} with the default lock table, {@code baton_locks}.
     *
     * @param em an entity manager on the database that holds the lock table
     * @return the helper
     */
    public static FencedWrites forDatabaseOf(EntityManager em) {
        return forDatabaseOf(em, Dialect.DEFAULT_TABLE);
    }

    /**
     * The condition, for statements built by hand: true while {@code token} is the current token of
     * the key and its lease is live. It locks the key's row until the caller's transaction ends, as
     * {@link #executeUpdate} does, so a statement built with it has the same guarantee (see the class
     * description); use it once per statement, in a {@code WHERE} of an UPDATE, DELETE or INSERT ...
     * SELECT.
     *
     * @param keyParameter the placeholder the key is bound to, e.g. {@code ?3} or {@code :key}
     * @param tokenParameter the placeholder the token is bound to
     * @return the SQL condition
     */
    public String condition(String keyParameter, String tokenParameter) {
        return dialect.fencePredicate(keyParameter, tokenParameter);
    }

    /**
     * Runs a fenced native update in the caller's transaction (which must be active).
     *
     * @param em the caller's entity manager
     * @param key the lock's key
     * @param fencingToken the lock's fencing token
     * @param sql a native UPDATE, DELETE or INSERT ... SELECT with {@value #FENCE} once and positional
     *     parameters {@code ?1 ... ?n}
     * @param parameters the values of {@code ?1 ... ?n}
     * @return the number of rows written: 0 when the lock is no longer the writer's
     * @throws IllegalArgumentException if the statement does not contain {@value #FENCE} exactly once
     */
    public int executeUpdate(EntityManager em, String key, long fencingToken, String sql, Object... parameters) {
        Objects.requireNonNull(em, "em");
        Objects.requireNonNull(key, "key");
        int at = sql == null ? -1 : sql.indexOf(FENCE);
        if (at < 0 || sql.indexOf(FENCE, at + 1) >= 0) {
            throw new IllegalArgumentException("A fenced statement must contain " + FENCE + " exactly once: " + sql);
        }
        int n = parameters.length;
        String fenced = dialect.fenceStatementPrefix()
                + sql.replace(FENCE, dialect.fencePredicate("?" + (n + 1), "?" + (n + 2)));
        Query query = em.createNativeQuery(fenced);
        for (int i = 0; i < n; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        query.setParameter(n + 1, key);
        query.setParameter(n + 2, fencingToken);
        return query.executeUpdate();
    }

    @Override
    public String toString() {
        return "fenced writes on " + dialect;
    }
}
