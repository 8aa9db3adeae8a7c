package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The statements of one database, one small subclass each (which database it is: {@link DialectFactory};
 * the DDL: {@link SchemaScript}). Acquire, renew and release are each ONE statement whose check and
 * write are atomic in the database, timed by the database's clock; tokens come from a sequence
 * drawn inside the statement, after the check.
 *
 * <p>Rows are never deleted by the store: a release moves the expiry into the past. So the insert
 * branch of an upsert runs at most once per key, and every later acquisition draws its token in the
 * update branch, under the row lock, after every earlier token for the key was drawn. That branch writes
 * at least the row's last token + 1 ({@code GREATEST}), so a key's tokens grow also after the sequence went
 * back ({@code ALTER SEQUENCE ... RESTART}, a restore from an older backup).
 *
 * <p>Every expiry is computed when the row is written, after any wait for the row lock, so a lease
 * written after a wait is a full ttl long. Every wait for a row lock is bounded by the call's
 * {@link CallBound}: a statement that runs out of time fails with an exception that
 * {@link #isLockTimeout} recognizes (an acquisition then answers "not acquired").
 *
 * <p>A fenced write ({@link #fencePredicate}) locks the key's row until the writer's transaction
 * ends, in a mode that a takeover by a new holder waits for: a fenced write is ordered before the
 * next acquisition of its key, or writes nothing.
 *
 * <p>Shared leases ({@link dev.baton.spi.StoreCapability#SHARED_LOCKS}) live in a second table,
 * {@link SchemaScript#sharedTableOf}, with the key's row as their summary and serialization point ({@link SharedLeases});
 * the exclusive statements here are the same with or without them: a key held by shared leases has a row whose
 * owner is {@link #NO_OWNER} and whose expiry is the greatest of theirs, which the exclusive
 * statements read as a held key, and whose owner no renewal or release matches.
 *
 * <p>Longer than the module's other classes (about 700 lines, mostly javadoc) on purpose: it is the one place
 * that states the store's SQL contract operation by operation, with the shared statements and the hooks the
 * three databases override next to each other. Split by operation, each subclass would override across several
 * classes and the reasoning above would be spread over them.
 */
public abstract class Dialect {

    /** Leases per statement of H2's {@link #renewAll}: two parameters each, well under every driver's limit. */
    static final int BATCH_CHUNK = 100;

    /** Rows per purge statement at most ({@link #purge}): short row locks, well under every driver's limit. */
    public static final int PURGE_BATCH = BATCH_CHUNK;

    /** The default table name. */
    public static final String DEFAULT_TABLE = "baton_locks";

    /** The default sequence name. */
    public static final String DEFAULT_SEQUENCE = "baton_fencing_seq";

    /**
     * The owner of a key's row while shared leases hold the key ({@link SharedLeases}): no owner token is empty, so
     * no exclusive renewal, release or fence matches it.
     */
    public static final String NO_OWNER = "";

    protected final String table;
    protected final String sequence;

    /** The table of shared leases, named after {@link #table} ({@link SchemaScript#sharedTableOf}). */
    protected final String sharedTable;

    protected Dialect(String table, String sequence) {
        this.table = table;
        this.sequence = sequence;
        this.sharedTable = SchemaScript.sharedTableOf(table);
    }

    /**
     * @return the database
     */
    public abstract JpaDatabase database();

    /**
     * Takes the key if no live lock holds it and no live turn of a waiter keeps it; one statement.
     * With a {@code turn}, also claims the key's turn for the waiter when it cannot take the key (see
     * {@link dev.baton.spi.LockStore#acquire(dev.baton.spi.Acquisition)}); without one, never
     * changes a turn except to clear it when the key is taken.
     *
     * @param c the connection of the store's transaction
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the lease
     * @param turn the waiter's claim, or null for a plain acquisition
     * @param bound how long the call may wait for the row lock
     * @return the result
     * @throws SQLException if the statement failed or ran out of time ({@link #isLockTimeout})
     */
    public abstract AcquireResult acquire(
            Connection c, String key, String owner, long ttlMillis, Turn turn, CallBound bound) throws SQLException;

    /**
     * Clears the key's turn if {@code waiter} holds it and it is live; one compare-and-set statement.
     * Leaves the lock columns alone.
     *
     * @param c the connection
     * @param key the key
     * @param waiter the waiter
     * @param bound how long the call may wait for the row lock
     * @return whether the waiter held the turn and it is now free
     * @throws SQLException if the statement failed or ran out of time
     */
    public boolean leaveTurn(Connection c, String key, String waiter, CallBound bound) throws SQLException {
        lockRows(c, List.of(key), bound);
        try (PreparedStatement ps = prepare(
                c,
                statementPrefix(bound) + "UPDATE " + table
                        + " SET turn_waiter = NULL, turn_since = NULL, turn_until = NULL"
                        + " WHERE lock_key = ? AND turn_waiter = ? AND turn_until > " + now(),
                bound)) {
            int p = firstParameter();
            ps.setString(p, key);
            ps.setString(p + 1, waiter);
            return update(ps) == 1;
        }
    }

    /**
     * Whether an acquisition is a waiter's repeated poll (it has asked before: {@code waitedMillis > 0}; the first
     * ask usually finds the key free and goes straight to the acquiring statement). Where the acquiring statement
     * would lock the key's row or draw a sequence value even when it takes nothing (MariaDB, H2), such a poll
     * reads the row first, without a lock, and is answered by {@link #refusedByRead} when the read can refuse it;
     * PostgreSQL's acquiring statement reads first by itself.
     *
     * @param turn the waiter's turn, or null
     * @return whether {@link #refusedByRead} comes first
     */
    protected static boolean isRepeatedPoll(Turn turn) {
        return turn != null && turn.waitedMillis() > 0;
    }

    /**
     * The answer of a waiter's poll read ({@link #isRepeatedPoll}): while a live lease holds the key and a live
     * turn belongs to another waiter that has waited at least as long as this one, the acquiring statement would
     * change nothing for this waiter, so the read's refusal is the answer: no row lock, no sequence value.
     * Refusing on a read that is a moment old is always safe. The waiter whose turn it is still renews its turn
     * with the acquiring statement.
     *
     * @param read the dialect's poll read, bound: one row with "the read refuses" and the holder's remaining lease
     *     in milliseconds, or no row for a key never taken; the caller closes it
     * @return the refusal, or null when the acquiring statement must decide
     */
    protected static AcquireResult refusedByRead(PreparedStatement read) throws SQLException {
        try (ResultSet rs = read.executeQuery()) {
            return rs.next() && rs.getBoolean(1) ? refused(rs.getLong(2), false) : null;
        }
    }

    /**
     * What an acquisition that did not take the key reports.
     *
     * @param remainingMillis the holder's remaining lease as the database computed it; 0 or less if the
     *     key is free or it is unknown
     * @param nextInTurn whether the caller holds the key's turn after the statement
     * @return the result
     */
    protected static AcquireResult refused(long remainingMillis, boolean nextInTurn) {
        if (!nextInTurn) {
            return held(remainingMillis);
        }
        return remainingMillis > 0 ? AcquireResult.nextInTurn(remainingMillis) : AcquireResult.nextInTurn();
    }

    /** What an exclusive renewal or release found besides the owner's own lease. */
    public enum Found {
        /** The owner's live exclusive lease: renewed or released. */
        EXCLUSIVE,
        /** Shared leases hold the key: the owner's lease may be one of them ({@link SharedLeases}). */
        SHARED,
        /** Neither: no live lease of the owner's, no live shared lease. */
        NOTHING
    }

    /**
     * What the exclusive renewals of a batch found.
     *
     * @param renewed the leases renewed
     * @param sharedKeys the keys among the others' that shared leases hold ({@link SharedLeases} renews those)
     */
    public record Renewals(Set<Lease> renewed, Set<String> sharedKeys) {}

    /**
     * {@link #renew}, telling when it renewed nothing whether shared leases hold the key (one more read here,
     * only then; PostgreSQL tells it in the renewal's own statement).
     *
     * @param c the connection
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the new lease
     * @param bound how long the call may wait for the row lock
     * @return what it found
     * @throws SQLException if a statement failed or ran out of time
     */
    public Found renewExclusive(Connection c, String key, String owner, long ttlMillis, CallBound bound)
            throws SQLException {
        return renew(c, key, owner, ttlMillis, bound) ? Found.EXCLUSIVE : sharedOrNothing(c, key, bound);
    }

    /**
     * {@link #release}, telling when it released nothing whether shared leases hold the key (one more read here,
     * only then; PostgreSQL tells it in the release's own statement).
     *
     * @param c the connection
     * @param key the key
     * @param owner the owner
     * @param bound how long the call may wait for the row lock
     * @return what it found
     * @throws SQLException if a statement failed or ran out of time
     */
    public Found releaseExclusive(Connection c, String key, String owner, CallBound bound) throws SQLException {
        return release(c, key, owner, bound) ? Found.EXCLUSIVE : sharedOrNothing(c, key, bound);
    }

    /** @return {@link Found#SHARED} if live shared leases hold the key (its row has no owner), else nothing */
    private Found sharedOrNothing(Connection c, String key, CallBound bound) throws SQLException {
        return sharedKeysOf(c, List.of(key), bound).isEmpty() ? Found.NOTHING : Found.SHARED;
    }

    /**
     * The keys among {@code keys} that live shared leases hold: their rows have no owner and a live expiry. A
     * plain read, in batches of {@value #BATCH_CHUNK}.
     *
     * @param c the connection
     * @param keys the keys
     * @param bound the call's bound
     * @return those keys
     * @throws SQLException if a statement failed
     */
    protected Set<String> sharedKeysOf(Connection c, Collection<String> keys, CallBound bound) throws SQLException {
        Set<String> shared = new HashSet<>();
        List<String> all = List.copyOf(new HashSet<>(keys));
        for (int from = 0; from < all.size(); from += BATCH_CHUNK) {
            List<String> batch = all.subList(from, Math.min(all.size(), from + BATCH_CHUNK));
            String sql = statementPrefix(bound) + "SELECT lock_key FROM " + table + " WHERE lock_key IN ("
                    + String.join(", ", Collections.nCopies(batch.size(), "?")) + ") AND owner = '" + NO_OWNER
                    + "' AND expires_at > " + now();
            try (PreparedStatement ps = prepare(c, sql, bound)) {
                int i = firstParameter();
                for (String key : batch) {
                    ps.setString(i++, key);
                }
                try (ResultSet rs = query(ps)) {
                    while (rs.next()) {
                        shared.add(rs.getString(1));
                    }
                }
            }
        }
        return shared;
    }

    /**
     * Extends {@code owner}'s live lock; one compare-and-set statement.
     *
     * @param c the connection
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the new lease
     * @param bound how long the call may wait for the row lock
     * @return whether it was extended
     * @throws SQLException if the statement failed or ran out of time
     */
    public boolean renew(Connection c, String key, String owner, long ttlMillis, CallBound bound) throws SQLException {
        lockRows(c, List.of(key), bound);
        try (PreparedStatement ps = prepare(c, renewSql(bound), bound)) {
            int p = firstParameter();
            ps.setLong(p, ttlParameter(ttlMillis));
            ps.setString(p + 1, key);
            ps.setString(p + 2, owner);
            return update(ps) == 1;
        }
    }

    /**
     * Extends every live lock among {@code leases} and names them: a lease not named was lost (expired,
     * released, taken over, or its row deleted). In a few short statements per batch (see each database).
     *
     * @param c the connection
     * @param leases the leases (key as stored, owner)
     * @param ttlMillis the new lease
     * @param bound how long the call may wait for row locks
     * @return the leases extended
     * @throws SQLException if a statement failed or ran out of time
     */
    public final Set<Lease> renewAll(Connection c, Collection<Lease> leases, long ttlMillis, CallBound bound)
            throws SQLException {
        return renewAllExclusive(c, leases, ttlMillis, bound).renewed();
    }

    /**
     * {@link #renewAll}, also naming, among the keys of the leases it did not renew, those that shared leases hold:
     * in the statements of the batch that lost a lease where the database can (PostgreSQL, MariaDB), else in a read
     * of those keys.
     *
     * @param c the connection
     * @param leases the leases (key as stored, owner)
     * @param ttlMillis the new lease
     * @param bound how long the call may wait for row locks
     * @return the leases extended, and the keys held by shared leases among the others'
     * @throws SQLException if a statement failed or ran out of time
     */
    public abstract Renewals renewAllExclusive(Connection c, Collection<Lease> leases, long ttlMillis, CallBound bound)
            throws SQLException;

    /**
     * The leases without repeats, sorted (one lock order for every instance, so batches that share keys
     * rarely deadlock; a deadlock is retried: {@link #isTransient}), cut into batches.
     *
     * @param leases the leases
     * @param size the most leases per batch
     * @return the batches, in order
     */
    protected static List<List<Lease>> inBatches(Collection<Lease> leases, int size) {
        List<Lease> ordered = new ArrayList<>(new HashSet<>(leases));
        ordered.sort(Comparator.comparing(Lease::key).thenComparing(Lease::owner));
        List<List<Lease>> batches = new ArrayList<>();
        for (int from = 0; from < ordered.size(); from += size) {
            batches.add(ordered.subList(from, Math.min(ordered.size(), from + size)));
        }
        return batches;
    }

    /**
     * @param count how many leases
     * @return a predicate that matches a row of any of them: {@code (lock_key = ? AND owner = ?) OR ...}
     */
    protected static String leaseMatch(int count) {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? "" : " OR ").append("(lock_key = ? AND owner = ?)");
        }
        return sql.toString();
    }

    /**
     * Reads the leases a statement names, key and owner in its first two columns.
     *
     * @param rs the result set
     * @param into where to add them
     * @throws SQLException if reading failed
     */
    protected static void readLeases(ResultSet rs, Collection<Lease> into) throws SQLException {
        while (rs.next()) {
            into.add(new Lease(rs.getString(1), rs.getString(2)));
        }
    }

    /**
     * Binds leases as {@link #leaseMatch} expects them.
     *
     * @param ps the statement
     * @param first the index of the first parameter
     * @param leases the leases
     * @throws SQLException if binding failed
     */
    protected static void bindLeases(PreparedStatement ps, int first, List<Lease> leases) throws SQLException {
        int index = first;
        for (Lease lease : leases) {
            ps.setString(index++, lease.key());
            ps.setString(index++, lease.owner());
        }
    }

    /**
     * Frees {@code owner}'s live lock (moves its expiry into the past); one compare-and-set statement.
     *
     * @param c the connection
     * @param key the key
     * @param owner the owner
     * @param bound how long the call may wait for the row lock
     * @return whether it was freed
     * @throws SQLException if the statement failed or ran out of time
     */
    public boolean release(Connection c, String key, String owner, CallBound bound) throws SQLException {
        lockRows(c, List.of(key), bound);
        try (PreparedStatement ps = prepare(c, releaseSql(bound), bound)) {
            int p = firstParameter();
            ps.setString(p, key);
            ps.setString(p + 1, owner);
            return update(ps) == 1;
        }
    }

    /**
     * Whether {@link #handOver} passes a key in one statement on this database ({@code StoreCapability.HAND_OVER}).
     *
     * @return false here
     */
    public boolean handsOver() {
        return false;
    }

    /**
     * Releases {@code owner}'s live exclusive lock and gives the key to {@code nextOwner} in one statement, unless a
     * live waiter's turn keeps the key: then only releases it. Only where {@link #handsOver}.
     *
     * @param c the connection
     * @param key the key
     * @param owner the owner releasing the key
     * @param nextOwner the owner the key is handed over to
     * @param ttlMillis the next owner's lease
     * @param bound how long the call may wait for the row lock
     * @return the next owner's fencing token; -1 if the lock was released but kept for a waiter's turn; 0 if the
     *     owner held no live exclusive lock (nothing changed)
     * @throws SQLException if the statement failed or ran out of time
     * @throws UnsupportedOperationException where the database does not hand keys over (the default)
     */
    public long handOver(Connection c, String key, String owner, String nextOwner, long ttlMillis, CallBound bound)
            throws SQLException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not hand keys over");
    }

    /**
     * The channel on which {@link #release} notifies the released key, where the database notifies.
     *
     * @return the channel, or empty (the default) when releases are not notified
     */
    public Optional<String> releaseChannel() {
        return Optional.empty();
    }

    /**
     * Reads the key's live holder, by the database clock; a plain read that takes no row lock and so
     * waits for no writer.
     *
     * @param c the connection
     * @param key the key
     * @param bound the call's bound
     * @return the holder, or empty when no live lock holds the key
     * @throws SQLException if the statement failed
     */
    public Optional<Holder> inspect(Connection c, String key, CallBound bound) throws SQLException {
        String sql = statementPrefix(bound) + "SELECT owner, token, " + remainingMillis() + " FROM " + table
                + " WHERE lock_key = ? AND expires_at > " + now();
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            ps.setString(firstParameter(), key);
            try (ResultSet rs = query(ps)) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                // Live by the WHERE clause: a remaining lease rounded down to 0 is still at least 1 ms.
                return Optional.of(new Holder(rs.getString(1), rs.getLong(2), Math.max(1, rs.getLong(3))));
            }
        }
    }

    /**
     * The condition of a row that may be purged: its lease ended more than {@code purge-after} ago by the
     * database clock, and so did its turn, if it has one. Two parameters, both bound with
     * {@link #ttlParameter(long)} of minus {@code purge-after}.
     *
     * @return an SQL condition on the lock table's columns
     */
    protected String purgeable() {
        return "expires_at < " + expiryAfter("?") + " AND (turn_until IS NULL OR turn_until < " + expiryAfter("?")
                + ")";
    }

    /**
     * Up to {@code limit} keys whose rows may be purged ({@link #purgeable()}): a plain read that locks
     * nothing. Only a hint: {@link #purge} decides again, row by row, under the row locks.
     *
     * @param c the connection
     * @param afterMillis {@code purge-after}
     * @param limit at most this many keys, at most {@value #BATCH_CHUNK}
     * @param bound the call's bound
     * @return the keys
     * @throws SQLException if the statement failed
     */
    public List<String> purgeCandidates(Connection c, long afterMillis, int limit, CallBound bound)
            throws SQLException {
        String sql =
                statementPrefix(bound) + "SELECT lock_key FROM " + table + " WHERE " + purgeable() + " LIMIT " + limit;
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            int p = firstParameter();
            ps.setLong(p, ttlParameter(-afterMillis));
            ps.setLong(p + 1, ttlParameter(-afterMillis));
            List<String> keys = new ArrayList<>();
            try (ResultSet rs = query(ps)) {
                while (rs.next()) {
                    keys.add(rs.getString(1));
                }
            }
            return keys;
        }
    }

    /**
     * Deletes the rows of {@code keys} that may still be purged: one {@code DELETE} by primary key whose
     * condition ({@link #purgeable()}) the database evaluates on each row's newest version under its row
     * lock, so a row that an acquisition took or renewed after {@link #purgeCandidates} stays, and one that
     * another transaction holds locked is waited for (at most the call's bound) and then judged again. Then the
     * shared leases of these keys that ended as long ago.
     *
     * @param c the connection
     * @param keys the keys, at most {@value #BATCH_CHUNK}
     * @param afterMillis {@code purge-after}
     * @param bound the call's bound
     * @return how many rows of the lock table it deleted
     * @throws SQLException if the statement failed or ran out of time
     */
    public int purge(Connection c, List<String> keys, long afterMillis, CallBound bound) throws SQLException {
        lockRows(c, keys, bound);
        String sql = statementPrefix(bound) + "DELETE FROM " + table + " WHERE lock_key IN ("
                + String.join(", ", Collections.nCopies(keys.size(), "?")) + ") AND " + purgeable();
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            int i = firstParameter();
            for (String key : keys) {
                ps.setString(i++, key);
            }
            ps.setLong(i++, ttlParameter(-afterMillis));
            ps.setLong(i, ttlParameter(-afterMillis));
            int deleted = update(ps);
            purgeSharedLeases(c, keys, afterMillis, bound);
            return deleted;
        }
    }

    /**
     * Deletes the shared leases of {@code keys} that ended more than {@code afterMillis} ago: such a lease decides
     * nothing any more (every decision counts live leases only, and the key's row has an expiry at or after its).
     */
    private void purgeSharedLeases(Connection c, List<String> keys, long afterMillis, CallBound bound)
            throws SQLException {
        String sql = statementPrefix(bound) + "DELETE FROM " + sharedTable + " WHERE lock_key IN ("
                + String.join(", ", Collections.nCopies(keys.size(), "?")) + ") AND expires_at < " + expiryAfter("?");
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            int i = firstParameter();
            for (String key : keys) {
                ps.setString(i++, key);
            }
            ps.setLong(i, ttlParameter(-afterMillis));
            update(ps);
        }
    }

    /**
     * What is left of a row's lease, by the database clock.
     *
     * @return an SQL expression of the milliseconds from now to {@code expires_at}
     */
    protected String remainingMillis() {
        return millisUntil("expires_at");
    }

    /**
     * The milliseconds from now to a time, by the database clock.
     *
     * @param time an SQL expression of a time, e.g. a column
     * @return an SQL expression of the milliseconds from now to it, negative once it has passed
     */
    protected abstract String millisUntil(String time);

    /**
     * The next value of the token sequence, as an SQL expression.
     *
     * @return e.g. {@code nextval('baton_fencing_seq')}
     */
    protected abstract String nextToken();

    /**
     * Inserts the key's row if it has none, holding nothing: owner {@link #NO_OWNER}, token 0 and an
     * expiry long past; changes nothing (and does not fail) if the row exists, also when another transaction
     * inserts it at the same moment. One parameter, the key.
     *
     * @return the statement, without {@link #statementPrefix(CallBound)}
     */
    protected abstract String insertRowIfMissing();

    /**
     * Whether {@link #insertRowIfMissing} also locks the key's row when it exists, for the rest of the transaction
     * (MariaDB's {@code ON DUPLICATE KEY UPDATE}): then a shared acquisition locks the row with it, instead of with
     * a locking read that, for a key without row, takes a gap lock (InnoDB) on which racing first acquisitions of
     * the key deadlock. Otherwise (the default) the row is locked by {@link #rowLockClause}, and inserted first only
     * when it is missing.
     *
     * @return whether the insert locks an existing row
     */
    protected boolean insertingLocksTheRow() {
        return false;
    }

    /**
     * The {@code INSERT} of a key's row that holds nothing, for {@link #insertRowIfMissing}: one parameter, the key.
     *
     * @return the statement, to which a database adds what it does on a duplicate key
     */
    protected String insertRowHoldingNothing() {
        return "INSERT INTO " + table + " (lock_key, owner, token, expires_at) VALUES (?, '" + NO_OWNER + "', 0, "
                + pastExpiry() + ")";
    }

    /**
     * The clause of the {@code SELECT} that locks a key's row for a shared lease's operation, bounded by the
     * call's time left (where the statement carries its own lock wait). It need not wait for a fenced write's lock
     * where the database has a weaker row lock than the one a takeover needs ({@link #takeoverLockClause}).
     *
     * @param bound the call's bound
     * @return the locking clause
     */
    protected String rowLockClause(CallBound bound) {
        return "FOR UPDATE";
    }

    /**
     * The clause that locks a key's row before a shared acquisition takes it from an exclusive holder whose
     * fenced write may still be open, where {@link #rowLockClause} does not wait for that write (PostgreSQL).
     *
     * @return the locking clause, or null (the default) when {@link #rowLockClause}'s lock suffices
     */
    protected String takeoverLockClause() {
        return null;
    }

    /**
     * An {@code INSERT} that gives back a column of the row it inserted.
     *
     * @param insert an {@code INSERT ... SELECT} of one row
     * @param column the column
     * @return a statement whose result set holds the column: by default {@code insert RETURNING column}
     */
    protected String returning(String insert, String column) {
        return insert + " RETURNING " + column;
    }

    /**
     * Tells the release of a shared lease of {@code key} on the {@linkplain #releaseChannel() release channel},
     * in the releasing transaction (so only when it commits); the default, without a channel, does nothing.
     *
     * @param c the connection of the release's transaction
     * @param key the key
     * @param bound the call's bound
     * @throws SQLException if the statement failed
     */
    protected void notifyReleased(Connection c, String key, CallBound bound) throws SQLException {}

    /**
     * Locks the rows of {@code keys} first, waiting at most the time the call has left, where a
     * statement that waited for a row lock would use a stale clock afterwards (H2). The default does
     * nothing: the statements lock the rows themselves.
     *
     * @param c the connection of the store's transaction
     * @param keys the keys, at most {@value #BATCH_CHUNK}
     * @param bound the call's bound
     * @throws SQLException if it failed or ran out of time
     */
    protected void lockRows(Connection c, List<String> keys, CallBound bound) throws SQLException {}

    /**
     * Whether a statement failed because it waited for a row lock (or ran) longer than its call's bound.
     *
     * @param e the failure
     * @return whether the call ran out of time
     */
    public abstract boolean isLockTimeout(SQLException e);

    /**
     * The index of a store statement's first own parameter in what {@link #prepare} returns: 1, unless the
     * dialect binds parameters of its own in front of the statement.
     *
     * @return the index of the first parameter the caller binds
     */
    protected int firstParameter() {
        return 1;
    }

    /**
     * Prepares a statement of a store call, with a query timeout as a last resort (the connection's
     * network timeout and the lock wait limits come first).
     *
     * @param c the connection
     * @param sql the statement
     * @param bound the call's bound
     * @return the statement
     * @throws SQLException if it failed
     */
    protected PreparedStatement prepare(Connection c, String sql, CallBound bound) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            ps.setQueryTimeout(bound.queryTimeoutSeconds());
        } catch (SQLException | RuntimeException e) {
            // not supported: the other bounds still hold
        }
        return ps;
    }

    /**
     * Prepares a named statement and binds its values in one go.
     *
     * @param c the connection
     * @param prefix what goes before the statement (no parameters), or empty
     * @param named the statement
     * @param bound the call's bound
     * @param values the values by name
     * @return the bound statement
     * @throws SQLException if it failed
     */
    protected PreparedStatement prepare(
            Connection c, String prefix, NamedSql named, CallBound bound, Map<String, Object> values)
            throws SQLException {
        PreparedStatement ps = prepare(c, prefix + named.sql(), bound);
        try {
            named.bind(ps, firstParameter(), values);
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /**
     * Runs a query prepared with {@link #prepare}.
     *
     * @param ps the statement
     * @return its result set
     * @throws SQLException if it failed
     */
    protected ResultSet query(PreparedStatement ps) throws SQLException {
        return ps.executeQuery();
    }

    /**
     * Runs an update prepared with {@link #prepare}.
     *
     * @param ps the statement
     * @return its update count
     * @throws SQLException if it failed
     */
    protected int update(PreparedStatement ps) throws SQLException {
        return ps.executeUpdate();
    }

    /**
     * Whether the store runs each operation in autocommit on a connection of the persistence unit's pool, outside
     * any JPA transaction ({@link PooledAutocommit}), where the driver would spend round trips on the
     * transaction the JPA provider begins and ends around it (MariaDB Connector/J switches autocommit with a
     * round trip of its own). Only asked when {@link #autocommit()} is true.
     *
     * @return whether operations bypass the provider's transaction
     */
    public boolean autocommitOnPooledConnection() {
        return false;
    }

    /**
     * Whether the driver switches a connection's auto-commit mode without a round trip while no transaction is
     * open (pgjdbc): then a connection the pool lends with auto-commit off is switched on for the operation and
     * back afterwards ({@link PooledAutocommit#runSwitched}) instead of getting a {@code COMMIT} of its own.
     * Only asked when {@link #autocommitOnPooledConnection()} is true.
     *
     * @return whether switching auto-commit is free
     */
    public boolean switchesAutocommitFreely() {
        return false;
    }

    /**
     * Whether the store may run each operation in autocommit, as one round trip: every operation of this
     * dialect is one statement, atomic by itself, that carries its own lock wait limit (or several statements
     * whose atomicity does not depend on a common transaction), and the driver switches autocommit on for it
     * without a round trip of its own. Otherwise (the default) each operation runs in a transaction.
     *
     * @return whether operations run in autocommit
     */
    public boolean autocommit() {
        return false;
    }

    /**
     * The row lock a fenced write takes on its key's row (held until the writer's transaction ends): a
     * takeover by a new holder must wait for it.
     *
     * @return the locking clause of the fence's sub-select
     */
    protected String fenceLockClause() {
        return "FOR UPDATE";
    }

    /**
     * The database clock, as the statements compare expiries with it.
     *
     * @return an SQL expression of the current time
     */
    protected abstract String now();

    /**
     * The expiry {@code ttl} from now by the database clock.
     *
     * @param ttlParameter the placeholder of the ttl, bound with {@link #ttlParameter(long)}
     * @return an SQL expression
     */
    protected abstract String expiryAfter(String ttlParameter);

    /**
     * An expiry long past: what a release writes (the row stays, so the key's tokens keep growing).
     *
     * @return an SQL literal
     */
    protected String pastExpiry() {
        return "TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00'";
    }

    /**
     * A prefix for every statement that reads the clock (MariaDB pins the time zone to UTC), or empty.
     *
     * @return the prefix
     */
    protected String statementPrefix() {
        return "";
    }

    /**
     * {@link #statementPrefix()} for a statement of a store call, which may also carry the call's lock
     * wait limit (MariaDB).
     *
     * @param bound the call's bound
     * @return the prefix
     */
    protected String statementPrefix(CallBound bound) {
        return statementPrefix();
    }

    /**
     * @param bound the call's bound
     * @return the renew statement: parameters ttl, key, owner
     */
    protected String renewSql(CallBound bound) {
        return statementPrefix(bound) + "UPDATE " + table + " SET expires_at = " + expiryAfter("?")
                + " WHERE lock_key = ? AND owner = ? AND expires_at > " + now();
    }

    /**
     * @param bound the call's bound
     * @return the release statement: parameters key, owner
     */
    protected String releaseSql(CallBound bound) {
        return statementPrefix(bound) + "UPDATE " + table + " SET expires_at = " + pastExpiry()
                + " WHERE lock_key = ? AND owner = ? AND expires_at > " + now();
    }

    /**
     * The ttl as the statements bind it.
     *
     * @param ttlMillis the ttl in ms
     * @return the bound value
     */
    protected long ttlParameter(long ttlMillis) {
        return ttlMillis;
    }

    /**
     * What a refused acquisition reports.
     *
     * @param remainingMillis the holder's remaining lease as the database computed it; 0 or less if unknown
     * @return the result
     */
    protected static AcquireResult held(long remainingMillis) {
        return remainingMillis > 0 ? AcquireResult.notAcquired(remainingMillis) : AcquireResult.notAcquired();
    }

    /**
     * The SQL predicate of a fenced write: true while {@code token} is the key's current token and
     * its lease is live, by the database clock, and the lease is exclusive (a shared lease's token never passes:
     * the row of a key held by shared leases has no owner). Its sub-select locks the key's row
     * ({@link #fenceLockClause()}) until the writer's transaction ends, so no new holder takes the key
     * over before the write commits, also when the write waits for other rows after the check.
     *
     * @param keyParameter the placeholder of the key, e.g. {@code ?3}
     * @param tokenParameter the placeholder of the token, e.g. {@code ?4}
     * @return the predicate
     */
    public String fencePredicate(String keyParameter, String tokenParameter) {
        return "EXISTS (SELECT 1 FROM " + table + " baton_fence WHERE baton_fence.lock_key = " + keyParameter
                + " AND baton_fence.token = " + tokenParameter + " AND baton_fence.expires_at > " + now()
                + " AND baton_fence.owner <> '" + NO_OWNER + "' " + fenceLockClause() + ")";
    }

    /**
     * A prefix for the whole fenced statement (MariaDB pins the session time zone), or empty.
     *
     * @return the prefix
     */
    public String fenceStatementPrefix() {
        return statementPrefix();
    }

    /**
     * Creates the table and the sequence if missing, from the shipped DDL; idempotent, and safe when
     * several instances do it at once.
     *
     * @param c the connection
     * @throws SQLException if it failed
     */
    public void create(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : createStatements()) {
                st.execute(sql);
            }
        }
    }

    /**
     * Checks that the table and the sequence exist and that the store's statements can read them; what
     * they must be like is checked by {@link dev.baton.jpa.internal.schema.SchemaCheck}.
     *
     * @param c the connection
     * @throws SQLException if they do not exist or cannot be read
     */
    public void validate(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeQuery("SELECT lock_key, owner, token, expires_at FROM " + table + " WHERE 1 = 0")
                    .close();
            st.executeQuery(sequenceProbeSql()).close();
        }
    }

    /** @return a query that uses the sequence */
    protected abstract String sequenceProbeSql();

    /**
     * Whether a failure is worth running the operation again: the database rolled the transaction
     * back (deadlock, serialization failure) and nothing was changed.
     *
     * @param e the failure
     * @return whether to retry
     */
    public boolean isTransient(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("40");
    }

    /**
     * Whether a transient failure is a fault of the database itself rather than a sign of other callers at
     * work on the key: one worth running again even when the call's bound is spent (a call that may not wait
     * would otherwise answer "not acquired" for a key nobody holds).
     *
     * @param e a failure {@link #isTransient} accepts
     * @return whether to retry it past the bound (within the store's attempts)
     */
    public boolean isGlitch(SQLException e) {
        return false;
    }

    /**
     * The DDL statements of this database, with the configured names.
     *
     * @return the statements, in order
     */
    public List<String> createStatements() {
        return SchemaScript.statements(database(), table, sequence);
    }

    /** @return the table name */
    public String table() {
        return table;
    }

    /** @return the sequence name */
    public String sequence() {
        return sequence;
    }

    /** @return the table of shared leases */
    public String sharedTable() {
        return sharedTable;
    }

    @Override
    public String toString() {
        return database().folder() + " (table " + table + ", sequence " + sequence + ")";
    }
}
