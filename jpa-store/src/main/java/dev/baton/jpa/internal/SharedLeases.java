package dev.baton.jpa.internal;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Shared leases in table mode ({@link dev.baton.spi.StoreCapability#SHARED_LOCKS}): permits and read locks, one row
 * each in the table of shared leases ({@link SchemaScript#sharedTableOf}), with its own owner, token and expiry.
 *
 * <p><b>The key's row is their summary and the one point that serializes the key.</b> While shared leases hold a
 * key, its row in the lock table has the empty owner ({@link #NO_OWNER}: no owner token is empty), the key's last
 * token, and the greatest expiry of its shared leases. So the exclusive statements of
 * {@link Dialect} stay what they were, with no extra statement or round trip: an exclusive acquisition sees a
 * held key until the last shared lease ends (and reports that lease's remaining time), and no exclusive renewal or
 * release matches the row. Every operation here first locks the key's row, inserting it if the key has none, and
 * only then reads the shared leases, in a later statement of the same transaction: a statement's snapshot is taken
 * when it begins (PostgreSQL under {@code READ COMMITTED}), so a read in the locking statement could miss a lease
 * committed by a transaction that held the row a moment before; the next statement sees it. Every write of a
 * shared lease happens under that lock, so the leases read are the key's leases until the transaction ends.
 *
 * <p><b>One transaction per operation.</b> An acquisition locks the row, reads the row and the key's live shared
 * leases in one statement, decides as {@code MemoryLockStore} does (with turns), and then either takes a lease
 * (inserts it, drawing {@code GREATEST(nextval, the row's token + 1)}, and writes the row: no owner, that token,
 * the greatest expiry, no turn), claims the key's turn, or changes nothing. A release deletes the lease and sets
 * the row's expiry to the greatest of those left (or long past); a renewal extends the lease and does the same.
 * The transaction is the store's (on H2, or under an application's runner) or one opened here on a connection in
 * autocommit (PostgreSQL, MariaDB), committed before the connection goes back; the statements carry their lock
 * wait limits as every store statement does. The exclusive path never comes here: its operations are one
 * statement, and a renewal or release of a shared lease arrives here only after the exclusive statement matched
 * no row.
 */
public final class SharedLeases {

    /** The owner of a key's row while shared leases hold the key: no owner token is empty. */
    public static final String NO_OWNER = Dialect.NO_OWNER;

    private final Dialect d;
    private final String table;
    private final String shared;
    private final NamedSql readSql;
    private final String claimSql;
    private final String endedSql;
    private final String insertSql;
    private final String takeSql;
    private final String releaseSql;
    private final String shrinkSql;
    private final String inspectSql;

    /**
     * The statements of shared leases on a database.
     *
     * @param dialect the database's dialect, whose expressions they use
     */
    public SharedLeases(Dialect dialect) {
        this.d = dialect;
        this.table = dialect.table;
        this.shared = dialect.sharedTable;
        String now = d.now();
        String live = "expires_at > " + now;
        // One read after the row lock: the row, and the key's shared leases. "younger": the turn's waiter has waited
        // less long than this one (its start is after this one's), so this one may take the turn.
        this.readSql = NamedSql.of("SELECT m.owner, m.token, CASE WHEN m.expires_at > " + now + " THEN 1 ELSE 0 END, "
                + d.millisUntil("m.expires_at") + ", CASE WHEN m.turn_until > " + now + " THEN 1 ELSE 0 END,"
                + " m.turn_waiter, CASE WHEN m.turn_since > " + d.expiryAfter("{minuswaited}") + " THEN 1 ELSE 0 END,"
                + " a.live, a.shortest, a.mine, a.ended FROM " + table + " m CROSS JOIN (SELECT"
                + " COUNT(CASE WHEN " + live + " THEN 1 END) AS live,"
                + " MIN(CASE WHEN " + live + " THEN " + d.remainingMillis() + " END) AS shortest,"
                + " COUNT(CASE WHEN " + live + " AND owner = {owner} THEN 1 END) AS mine,"
                + " COUNT(CASE WHEN expires_at <= " + now + " THEN 1 END) AS ended"
                + " FROM " + shared + " WHERE lock_key = {key}) a WHERE m.lock_key = {key}");
        this.claimSql = "UPDATE " + table + " SET turn_waiter = ?, turn_since = " + d.expiryAfter("?")
                + ", turn_until = " + d.expiryAfter("?") + " WHERE lock_key = ?";
        this.endedSql = "SELECT owner FROM " + shared + " WHERE lock_key = ? AND expires_at <= " + now + " LIMIT "
                + Dialect.BATCH_CHUNK;
        // The token is drawn here, after the decision, under the row lock; never at or below the key's last one.
        this.insertSql = d.returning(
                "INSERT INTO " + shared + " (lock_key, owner, token, expires_at) SELECT m.lock_key, ?, GREATEST("
                        + d.nextToken() + ", m.token + 1), " + d.expiryAfter("?") + " FROM " + table
                        + " m WHERE m.lock_key = ?",
                "token");
        // The row's expiry: the greatest of the key's shared leases (an ended one only where all have ended).
        String greatest = "(SELECT MAX(x.expires_at) FROM " + shared + " x WHERE x.lock_key = m.lock_key)";
        this.takeSql = "UPDATE " + table + " m SET owner = '" + NO_OWNER + "', token = ?, expires_at = " + greatest
                + ", turn_waiter = NULL, turn_since = NULL, turn_until = NULL WHERE m.lock_key = ?";
        this.releaseSql = "DELETE FROM " + shared + " WHERE lock_key = ? AND owner = ? AND " + live;
        this.shrinkSql = "UPDATE " + table + " m SET expires_at = COALESCE(" + greatest + ", " + d.pastExpiry()
                + ") WHERE m.lock_key = ?";
        this.inspectSql = "SELECT owner, token, " + d.remainingMillis() + " FROM " + shared + " WHERE lock_key = ? AND "
                + live + " ORDER BY token DESC LIMIT 1";
    }

    /**
     * @param dialect a dialect
     * @return whether these are the statements of that dialect
     */
    boolean on(Dialect dialect) {
        return d == dialect;
    }

    /**
     * Takes a shared lease of the key if no live exclusive lease, fewer than {@code limit} live shared leases and
     * no live turn of another waiter hold it; otherwise claims the turn for {@code turn}'s waiter where it may, as
     * {@link Dialect#acquire} does. An owner that holds a live shared lease of the key takes no second one, and
     * claims no turn by it.
     *
     * @param c the connection of the store's transaction, or in autocommit
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the lease
     * @param limit the request's limit of shared leases, 1 to {@link Integer#MAX_VALUE}
     * @param turn the waiter's claim, or null
     * @param bound the call's bound
     * @return acquired with its token, next in turn, or not acquired with how long until the key would have room
     * @throws SQLException if a statement failed or ran out of time
     */
    public AcquireResult acquire(
            Connection c, String key, String owner, long ttlMillis, int limit, Turn turn, CallBound bound)
            throws SQLException {
        return inTransaction(c, () -> {
            if (d.insertingLocksTheRow()) {
                update(c, d.statementPrefix(bound) + d.insertRowIfMissing(), bound, key);
            } else if (!lockRows(c, List.of(key), false, bound)) {
                update(c, d.statementPrefix(bound) + d.insertRowIfMissing(), bound, key);
                if (!lockRows(c, List.of(key), false, bound)) {
                    throw new SQLException("the row of key '" + key + "' is missing right after it was inserted");
                }
            }
            Map<String, Object> values = Map.of(
                    "key", key, "owner", owner, "minuswaited", d.ttlParameter(turn == null ? 0 : -turn.waitedMillis()));
            KeyState state;
            try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound), readSql, bound, values);
                    ResultSet rs = d.query(ps)) {
                if (!rs.next()) {
                    throw new SQLException("the row of key '" + key + "' is missing under its row lock");
                }
                state = KeyState.read(rs);
            }
            boolean mayClaim =
                    turn != null && (!state.turnLive || turn.waiter().equals(state.turnWaiter) || state.turnYounger);
            if (state.heldExclusively()) {
                return refuse(c, key, turn, mayClaim, state.remainingMillis, bound);
            }
            if (state.live >= limit) {
                return refuse(c, key, turn, mayClaim, state.shortestMillis, bound);
            }
            if (state.turnLive && !mayClaim) {
                return AcquireResult.notAcquired(); // free, but kept for the waiter whose turn it is
            }
            if (state.mine > 0) {
                // its own lease: changes nothing (claims no turn: the key has room, the owner takes no second lease)
                return AcquireResult.notAcquired();
            }
            String takeover = d.takeoverLockClause();
            if (takeover != null && !state.owner.equals(NO_OWNER)) {
                // the last exclusive holder's fenced write may still be open: the new lease is ordered after it
                query(
                        c,
                        d.statementPrefix(bound) + "SELECT lock_key FROM " + table + " WHERE lock_key = ? " + takeover,
                        bound,
                        key);
            }
            if (state.ended > 0) {
                deleteEnded(c, key, bound);
            }
            long token;
            try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound) + insertSql, bound)) {
                int p = d.firstParameter();
                ps.setString(p, owner);
                ps.setLong(p + 1, d.ttlParameter(ttlMillis));
                ps.setString(p + 2, key);
                try (ResultSet rs = d.query(ps)) {
                    if (!rs.next()) {
                        throw new SQLException("the insert of a shared lease of '" + key + "' returned no token");
                    }
                    token = rs.getLong(1);
                }
            }
            try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound) + takeSql, bound)) {
                ps.setLong(d.firstParameter(), token);
                ps.setString(d.firstParameter() + 1, key);
                requireOneRow(d.update(ps), key);
            }
            return AcquireResult.acquired(token);
        });
    }

    /**
     * Deletes the key's shared leases that ended (up to {@value Dialect#BATCH_CHUNK}; the next acquisition deletes
     * more): read first, then deleted by primary key. A range {@code DELETE} would take gap locks on MariaDB that
     * hold up, and deadlock with, the inserts of other keys' leases.
     */
    private void deleteEnded(Connection c, String key, CallBound bound) throws SQLException {
        List<String> owners = new ArrayList<>();
        try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound) + endedSql, bound)) {
            ps.setString(d.firstParameter(), key);
            try (ResultSet rs = d.query(ps)) {
                while (rs.next()) {
                    owners.add(rs.getString(1));
                }
            }
        }
        if (owners.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = d.prepare(
                c,
                d.statementPrefix(bound) + "DELETE FROM " + shared + " WHERE lock_key = ? AND owner IN ("
                        + placeholders(owners) + ") AND expires_at <= " + d.now(),
                bound)) {
            ps.setString(d.firstParameter(), key);
            bindKeys(ps, d.firstParameter() + 1, owners);
            d.update(ps);
        }
    }

    /** Refuses, after claiming the key's turn for the waiter if it may have it. */
    private AcquireResult refuse(
            Connection c, String key, Turn turn, boolean mayClaim, long remainingMillis, CallBound bound)
            throws SQLException {
        if (mayClaim) {
            try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound) + claimSql, bound)) {
                int p = d.firstParameter();
                ps.setString(p, turn.waiter());
                ps.setLong(p + 1, d.ttlParameter(-turn.waitedMillis()));
                ps.setLong(p + 2, d.ttlParameter(turn.keepMillis()));
                ps.setString(p + 3, key);
                requireOneRow(d.update(ps), key);
            }
        }
        return Dialect.refused(remainingMillis, mayClaim);
    }

    /**
     * Frees {@code owner}'s live shared lease of the key, and tells it on the release channel where there is one.
     *
     * @param c the connection of the store's transaction, or in autocommit
     * @param key the key
     * @param owner the owner
     * @param bound the call's bound
     * @return whether the owner held a live shared lease of the key and it is now gone
     * @throws SQLException if a statement failed or ran out of time
     */
    public boolean release(Connection c, String key, String owner, CallBound bound) throws SQLException {
        return inTransaction(c, () -> {
            if (!lockRows(c, List.of(key), true, bound)) {
                return false; // no row without owner: no shared lease holds the key
            }
            try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound) + releaseSql, bound)) {
                ps.setString(d.firstParameter(), key);
                ps.setString(d.firstParameter() + 1, owner);
                if (d.update(ps) == 0) {
                    return false;
                }
            }
            requireOneRow(update(c, d.statementPrefix(bound) + shrinkSql, bound, key), key);
            d.notifyReleased(c, key, bound);
            return true;
        });
    }

    /**
     * Extends the live shared leases among {@code leases} and names them, in batches of {@value Dialect#BATCH_CHUNK}
     * (a transaction each): locks the rows of their keys that shared leases hold, in key order, extends the leases,
     * and sets each row's expiry to the greatest of its key's.
     *
     * @param c the connection of the store's transaction, or in autocommit
     * @param leases the leases
     * @param ttlMillis the new lease
     * @param bound the call's bound
     * @return the leases extended
     * @throws SQLException if a statement failed or ran out of time
     */
    public Set<Lease> renewAll(Connection c, Collection<Lease> leases, long ttlMillis, CallBound bound)
            throws SQLException {
        Set<Lease> renewed = new HashSet<>();
        for (List<Lease> batch : Dialect.inBatches(leases, Dialect.BATCH_CHUNK)) {
            renewed.addAll(inTransaction(c, () -> renewBatch(c, batch, ttlMillis, bound)));
        }
        return renewed;
    }

    private List<Lease> renewBatch(Connection c, List<Lease> batch, long ttlMillis, CallBound bound)
            throws SQLException {
        List<String> keys =
                new ArrayList<>(new TreeSet<>(batch.stream().map(Lease::key).toList()));
        Set<String> held = lockedRows(c, keys, true, bound);
        List<Lease> candidates =
                batch.stream().filter(lease -> held.contains(lease.key())).toList();
        if (candidates.isEmpty()) {
            return List.of();
        }
        int updated;
        try (PreparedStatement ps = d.prepare(
                c,
                d.statementPrefix(bound) + "UPDATE " + shared + " SET expires_at = " + d.expiryAfter("?") + " WHERE ("
                        + Dialect.leaseMatch(candidates.size()) + ") AND expires_at > " + d.now(),
                bound)) {
            ps.setLong(d.firstParameter(), d.ttlParameter(ttlMillis));
            Dialect.bindLeases(ps, d.firstParameter() + 1, candidates);
            updated = d.update(ps);
        }
        if (updated == 0) {
            return List.of();
        }
        List<Lease> extended = candidates;
        if (updated < candidates.size()) {
            // Under the row locks no one else writes these leases: the live ones now are the ones just extended (one
            // that was not had ended, and stays ended).
            extended = new ArrayList<>();
            try (PreparedStatement ps = d.prepare(
                    c,
                    d.statementPrefix(bound) + "SELECT lock_key, owner FROM " + shared + " WHERE ("
                            + Dialect.leaseMatch(candidates.size()) + ") AND expires_at > " + d.now(),
                    bound)) {
                Dialect.bindLeases(ps, d.firstParameter(), candidates);
                try (ResultSet rs = d.query(ps)) {
                    Dialect.readLeases(rs, extended);
                }
            }
        }
        List<String> extendedKeys = extended.stream().map(Lease::key).distinct().toList();
        try (PreparedStatement ps = d.prepare(
                c,
                d.statementPrefix(bound) + "UPDATE " + table + " m SET expires_at = (SELECT MAX(x.expires_at) FROM "
                        + shared + " x WHERE x.lock_key = m.lock_key) WHERE m.lock_key IN ("
                        + placeholders(extendedKeys)
                        + ")",
                bound)) {
            bindKeys(ps, d.firstParameter(), extendedKeys);
            d.update(ps);
        }
        return extended;
    }

    /**
     * The live shared lease of the key with the greatest token; a plain read.
     *
     * @param c the connection
     * @param key the key
     * @param bound the call's bound
     * @return its holder, or empty when no live shared lease holds the key
     * @throws SQLException if the statement failed
     */
    public Optional<Holder> inspect(Connection c, String key, CallBound bound) throws SQLException {
        try (PreparedStatement ps = d.prepare(c, d.statementPrefix(bound) + inspectSql, bound)) {
            ps.setString(d.firstParameter(), key);
            try (ResultSet rs = d.query(ps)) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                // Live by the WHERE clause: a remaining lease rounded down to 0 is still at least 1 ms.
                return Optional.of(new Holder(rs.getString(1), rs.getLong(2), Math.max(1, rs.getLong(3))));
            }
        }
    }

    /**
     * Locks the rows of {@code keys} (in key order), inserting none.
     *
     * @param withoutOwner only rows without owner (keys that shared leases hold)
     * @return whether every one of them was found and locked
     */
    private boolean lockRows(Connection c, List<String> keys, boolean withoutOwner, CallBound bound)
            throws SQLException {
        return lockedRows(c, keys, withoutOwner, bound).size() == keys.size();
    }

    /** @return the keys of the rows it locked */
    private Set<String> lockedRows(Connection c, List<String> keys, boolean withoutOwner, CallBound bound)
            throws SQLException {
        String sql = d.statementPrefix(bound) + "SELECT lock_key FROM " + table + " WHERE lock_key IN ("
                + placeholders(keys) + ")" + (withoutOwner ? " AND owner = '" + NO_OWNER + "'" : "")
                + " ORDER BY lock_key " + d.rowLockClause(bound);
        Set<String> locked = new HashSet<>();
        try (PreparedStatement ps = d.prepare(c, sql, bound)) {
            bindKeys(ps, d.firstParameter(), keys);
            try (ResultSet rs = d.query(ps)) {
                while (rs.next()) {
                    locked.add(rs.getString(1));
                }
            }
        }
        return locked;
    }

    /** Runs a query of one parameter, the key, for its locks. */
    private void query(Connection c, String sql, CallBound bound, String key) throws SQLException {
        try (PreparedStatement ps = d.prepare(c, sql, bound)) {
            ps.setString(d.firstParameter(), key);
            d.query(ps).close();
        }
    }

    /** @return the update count of a statement of one parameter, the key */
    private int update(Connection c, String sql, CallBound bound, String key) throws SQLException {
        try (PreparedStatement ps = d.prepare(c, sql, bound)) {
            ps.setString(d.firstParameter(), key);
            return d.update(ps);
        }
    }

    private static void requireOneRow(int updated, String key) throws SQLException {
        if (updated != 1) {
            throw new SQLException("the row of key '" + key + "' changed under its row lock (" + updated + " rows)");
        }
    }

    private static String placeholders(List<String> keys) {
        return String.join(", ", Collections.nCopies(keys.size(), "?"));
    }

    private static int bindKeys(PreparedStatement ps, int first, List<String> keys) throws SQLException {
        int index = first;
        for (String key : keys) {
            ps.setString(index++, key);
        }
        return index;
    }

    /**
     * Runs {@code work} in one transaction: the store's, when the connection is in one (H2, an application's
     * runner, a pool that lends connections with auto-commit off), else one opened on the autocommit connection,
     * committed (or rolled back) before auto-commit goes back on.
     */
    private static <T> T inTransaction(Connection c, JdbcWork0<T> work) throws SQLException {
        if (!c.getAutoCommit()) {
            return work.run();
        }
        c.setAutoCommit(false);
        boolean committed = false;
        try {
            T result = work.run();
            c.commit();
            committed = true;
            return result;
        } finally {
            if (!committed) {
                rollbackQuietly(c);
            }
            if (!c.isClosed()) {
                c.setAutoCommit(true);
            }
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.isClosed()) {
                c.rollback();
            }
        } catch (SQLException | RuntimeException e) {
            // the failure that led here is what the caller reports
        }
    }

    /** Work on the connection {@link #inTransaction} was given. */
    @FunctionalInterface
    private interface JdbcWork0<T> {
        T run() throws SQLException;
    }

    /**
     * What the read after the row lock found.
     *
     * @param owner the row's owner: an exclusive holder's (live or not), or {@link #NO_OWNER}
     * @param rowLive whether the row's lease is live (an exclusive lease, or the greatest shared one)
     * @param remainingMillis the row's remaining lease
     * @param turnLive whether the key has a live turn
     * @param turnWaiter the turn's waiter, or null
     * @param turnYounger whether the turn's waiter has waited less long than this one
     * @param live the live shared leases
     * @param shortestMillis the shortest remaining lease of those, 0 if none
     * @param mine the live shared leases of this owner
     * @param ended the shared leases that ended (rows to delete)
     */
    private record KeyState(
            String owner,
            boolean rowLive,
            long remainingMillis,
            boolean turnLive,
            String turnWaiter,
            boolean turnYounger,
            long live,
            long shortestMillis,
            long mine,
            long ended) {

        static KeyState read(ResultSet rs) throws SQLException {
            return new KeyState(
                    rs.getString(1),
                    rs.getInt(3) == 1,
                    rs.getLong(4),
                    rs.getInt(5) == 1,
                    rs.getString(6),
                    rs.getInt(7) == 1,
                    rs.getLong(8),
                    rs.getLong(9),
                    rs.getLong(10),
                    rs.getLong(11));
        }

        /** A live exclusive lease: the row has an owner and a live lease. */
        boolean heldExclusively() {
            return rowLive && !NO_OWNER.equals(owner);
        }
    }
}
