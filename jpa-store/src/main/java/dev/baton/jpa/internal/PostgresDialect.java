package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL: an upsert whose update branch only fires on an expired row, in a CTE that also reads
 * the holder's remaining lease when it did not fire. Time is {@code clock_timestamp()} (the real
 * time at evaluation, not the transaction's start); tokens are {@code nextval} of a {@code CACHE 1}
 * sequence, so they are handed out in order to every session, and a takeover writes at least the row's
 * last token + 1 ({@code GREATEST}), so a key's tokens grow even after the sequence went back.
 *
 * <p>Row locks: the update branch names the key column in its {@code SET} list, which makes
 * PostgreSQL lock the conflicting row {@code FOR UPDATE} (not {@code FOR NO KEY UPDATE}); that is
 * the one mode that waits for the {@code FOR KEY SHARE} lock of a fenced write. Renewals and
 * releases are plain updates of {@code expires_at} ({@code FOR NO KEY UPDATE}), which a fence does
 * not hold up, so a holder renews while its fenced transaction is open. Lock waits are limited per
 * transaction by {@code SET LOCAL lock_timeout}.
 *
 * <p>Turns: an acquisition with a turn claims the turn of a key held by a live lease with a plain
 * {@code UPDATE} of the turn columns ({@code FOR NO KEY UPDATE}), so a waiter's poll does not wait for
 * the holder's fenced transaction; the upsert, with its {@code FOR UPDATE} lock, runs only when that
 * claim did not and the statement's snapshot shows the key free. One statement never changes a row
 * twice.
 */
final class PostgresDialect extends Dialect {

    /** Serializes concurrent schema creation: {@code CREATE ... IF NOT EXISTS} alone can still collide. */
    private static final long SCHEMA_LOCK_ID = 0x6261746f6e4a5041L;

    /**
     * How long the server keeps a store transaction whose client has gone silent between statements:
     * well below a renewal's share of the shortest sensible lease (ttl/3 of 2 s), far above a round trip.
     */
    static final long IDLE_IN_TRANSACTION_MILLIS = 1_000;

    /**
     * Leases per renewal statement: one statement of two array parameters each, so 10,000 held locks are 10
     * short statements (about 10 ms each on a local server), well inside the shortest renewal interval.
     */
    static final int RENEWAL_BATCH = 1_000;

    /** The parameters {@link #prepare} binds in front of every statement: the lock wait and the statement limit. */
    static final int LIMIT_PARAMETERS = 2;

    private static final String LIMITS = "SELECT set_config('lock_timeout', ?, true),"
            + " set_config('statement_timeout', ?, true),"
            + " set_config('idle_in_transaction_session_timeout', '" + IDLE_IN_TRANSACTION_MILLIS + "', true)";
    private static final String SYNC_LIMITS = LIMITS + "; ";
    private static final String ASYNC_LIMITS = LIMITS + ", set_config('synchronous_commit', 'off', true); ";

    private final NamedSql acquireSql;
    private final String renewAllSql;
    private final String renewSql;
    private final NamedSql turnSql;
    private final String releaseSql;
    private final String handOverSql;
    private final String channel;

    PostgresDialect(String table, String sequence) {
        super(table, sequence);
        this.channel = ReleaseChannel.name(table);
        // The join's rows are the leases whose row is live and theirs; each is locked FOR NO KEY UPDATE (not
        // held up by a fence) and, if it changed while the statement waited for it, checked again on its
        // newest version (a lease taken over meanwhile is not extended). RETURNING names the leases renewed.
        // Each statement of a renewal or release also names a key held by shared leases (its row has no owner), in a
        // branch that runs only when the lease was not renewed or released (a one-time filter on the CTE): the
        // store then renews or releases the shared lease, and an exclusive lease costs no more than before.
        String sharedRow = " AND h.owner = '" + NO_OWNER + "' AND h.expires_at > clock_timestamp()";
        this.renewAllSql = "WITH renewed AS (UPDATE " + table + " AS l SET expires_at = " + expiryAfter("?")
                + " FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS r(k, o)"
                + " WHERE l.lock_key = r.k AND l.owner = r.o AND l.expires_at > clock_timestamp()"
                + " RETURNING l.lock_key, l.owner)"
                + " SELECT lock_key, owner FROM renewed"
                + " UNION ALL SELECT h.lock_key, h.owner FROM " + table + " h WHERE h.lock_key = ANY(CAST(? AS TEXT[]))"
                + sharedRow + " AND (SELECT COUNT(*) FROM renewed) < ?";
        this.renewSql = "WITH renewed AS (" + renewSql((CallBound) null) + " RETURNING 1)"
                + " SELECT TRUE FROM renewed"
                + " UNION ALL SELECT FALSE FROM " + table + " h WHERE h.lock_key = ?" + sharedRow
                + " AND NOT EXISTS (SELECT 1 FROM renewed)";
        // Only a release of a key with a live turn notifies: a waiter keeps the turn while it waits (every waiter of a
        // key asks with its turn after its first refusal, and the oldest one holds it), so a release without one has
        // nobody to wake, and its commit skips PostgreSQL's notification queue, whose lock serialises the commits of
        // every notifying transaction of the database. The scalar sub-select makes PostgreSQL run "notified".
        this.releaseSql = "WITH freed AS (" + releaseSql((CallBound) null) + " RETURNING lock_key, turn_until),"
                + " notified AS (SELECT pg_notify(?, freed.lock_key) FROM freed"
                + " WHERE freed.turn_until > clock_timestamp())"
                + " SELECT TRUE FROM freed WHERE (SELECT COUNT(*) FROM notified) >= 0"
                + " UNION ALL SELECT FALSE FROM " + table + " h WHERE h.lock_key = ?" + sharedRow
                + " AND NOT EXISTS (SELECT 1 FROM freed)";
        String next = "nextval('" + sequence + "')";
        // The hand-over: the owner's live row, locked FOR UPDATE as a takeover locks it (so it waits for a fenced
        // write's FOR KEY SHARE), goes to the next owner with a new token unless a live turn keeps the key; then it
        // is only released, and notified as a release is. One clock read, so the two branches exclude each other.
        this.handOverSql = "WITH c AS (SELECT clock_timestamp() AS n),"
                + " held AS (SELECT h.lock_key, h.turn_until FROM " + table + " h, c"
                + " WHERE h.lock_key = ? AND h.owner = ? AND h.expires_at > c.n FOR UPDATE OF h),"
                + " passed AS (UPDATE " + table + " AS l SET owner = ?, token = GREATEST(" + next + ", l.token + 1),"
                + " expires_at = c.n + " + millis("?") + ", turn_waiter = NULL, turn_since = NULL, turn_until = NULL"
                + " FROM held, c WHERE l.lock_key = held.lock_key"
                + " AND (held.turn_until IS NULL OR held.turn_until <= c.n) RETURNING l.token),"
                + " freed AS (UPDATE " + table + " AS l SET expires_at = " + pastExpiry()
                + " FROM held, c WHERE l.lock_key = held.lock_key AND held.turn_until > c.n RETURNING l.lock_key),"
                + " notified AS (SELECT pg_notify(?, freed.lock_key) FROM freed)"
                + " SELECT token FROM passed"
                + " UNION ALL SELECT -1 FROM freed WHERE (SELECT COUNT(*) FROM notified) >= 0";
        // A key's row holds its last token: a takeover never writes one at or below it, also when the
        // sequence went back (ALTER SEQUENCE ... RESTART, a restore from an older backup).
        String above = "GREATEST(" + next + ", l.token + 1)";
        // A poll is a read first: while the statement's snapshot shows a live lease (or a live turn),
        // the insert selects no row, so no row is locked, no transaction id assigned and no sequence
        // value drawn; only a missing or expired row goes on to the upsert.
        this.acquireSql = NamedSql.of("WITH attempt AS ("
                + " INSERT INTO " + table + " AS l (lock_key, owner, token, expires_at)"
                + " SELECT {key}, {owner}, " + next + ", " + expiryAfter("{ttl}")
                + " WHERE NOT EXISTS (SELECT 1 FROM " + table + " f WHERE f.lock_key = {key}"
                + " AND (f.expires_at > clock_timestamp() OR f.turn_until > clock_timestamp()))"
                + " ON CONFLICT (lock_key) DO UPDATE"
                + " SET lock_key = EXCLUDED.lock_key, owner = EXCLUDED.owner, token = " + above + ","
                + " expires_at = " + expiryAfter("{ttl}") + ", turn_waiter = NULL, turn_since = NULL, turn_until = NULL"
                + " WHERE l.expires_at <= clock_timestamp()"
                + " AND (l.turn_until IS NULL OR l.turn_until <= clock_timestamp())"
                + " RETURNING l.token)"
                + " SELECT token, CAST(NULL AS BIGINT) FROM attempt"
                + " UNION ALL"
                + " SELECT NULL, " + remaining("h") + " FROM " + table + " h"
                + " WHERE h.lock_key = {key} AND NOT EXISTS (SELECT 1 FROM attempt)");
        // With a turn: "claim" takes the turn of a key held by a live lease with a plain UPDATE of the
        // turn columns (FOR NO KEY UPDATE: it does not wait for a fenced write's FOR KEY SHARE). Only
        // when it did not, and the statement's snapshot shows no live lease whose turn this waiter could claim,
        // "attempt" upserts: its update branch locks the row FOR UPDATE (SET lock_key) and, under that lock, either
        // takes the key (clearing the turn) or claims the turn. (A live lease with a claimable turn in the snapshot
        // that "claim" did not update changed while "claim" waited for the row: most often it was released, by a
        // release that saw no turn and so notified nobody, and the upsert takes the key now rather than at the next
        // poll; a turn taken meanwhile by an older waiter refuses it.) All columns of that branch are set from one
        // sub-select that reads the clock once, so they agree on what happened.
        String claimable = claimable("l", "clock_timestamp()");
        this.turnSql = NamedSql.of("WITH claim AS ("
                + " UPDATE " + table + " AS l SET turn_waiter = {waiter},"
                + " turn_since = clock_timestamp() - " + millis("{waited}") + ","
                + " turn_until = clock_timestamp() + " + millis("{keep}")
                + " WHERE l.lock_key = {key} AND l.expires_at > clock_timestamp() AND " + claimable
                + " RETURNING l.expires_at),"
                + " attempt AS ("
                + " INSERT INTO " + table + " AS l (lock_key, owner, token, expires_at)"
                + " SELECT {key}, {owner}, " + next + ", " + expiryAfter("{ttl}")
                + " WHERE NOT EXISTS (SELECT 1 FROM claim) AND NOT EXISTS (SELECT 1 FROM " + table + " f"
                + " WHERE f.lock_key = {key} AND f.expires_at > clock_timestamp() AND NOT "
                + claimable("f", "clock_timestamp()")
                + ")"
                + " ON CONFLICT (lock_key) DO UPDATE"
                + " SET lock_key = EXCLUDED.lock_key,"
                + " (owner, token, expires_at, turn_waiter, turn_since, turn_until) = ("
                + " SELECT CASE WHEN x.take THEN EXCLUDED.owner ELSE l.owner END,"
                + " CASE WHEN x.take THEN " + above + " ELSE l.token END,"
                + " CASE WHEN x.take THEN x.n + " + millis("{ttl}") + " ELSE l.expires_at END,"
                + " CASE WHEN x.take THEN NULL WHEN x.may THEN {waiter} ELSE l.turn_waiter END,"
                + " CASE WHEN x.take THEN NULL WHEN x.may THEN x.n - " + millis("{waited}") + " ELSE l.turn_since END,"
                + " CASE WHEN x.take THEN NULL WHEN x.may THEN x.n + " + millis("{keep}") + " ELSE l.turn_until END"
                + " FROM (SELECT c.n, l.expires_at <= c.n AND " + claimable("l", "c.n") + " AS take, "
                + claimable("l", "c.n") + " AS may FROM (SELECT clock_timestamp() AS n) c) x)"
                + " WHERE " + claimable
                + " RETURNING l.token, l.expires_at, l.turn_waiter)"
                + " SELECT CASE WHEN a.turn_waiter IS NULL THEN a.token END, a.turn_waiter = {waiter}, "
                + remaining("a") + " FROM attempt a"
                + " UNION ALL SELECT NULL, TRUE, " + remaining("c") + " FROM claim c"
                + " UNION ALL SELECT NULL, h.turn_waiter = {waiter} AND h.turn_until > clock_timestamp(), "
                + remaining("h") + " FROM " + table + " h WHERE h.lock_key = {key}"
                + " AND NOT EXISTS (SELECT 1 FROM attempt) AND NOT EXISTS (SELECT 1 FROM claim)");
    }

    /** Whether the waiter may have the turn of row {@code l} at {@code now}: free, expired, its own, or younger. */
    private static String claimable(String l, String now) {
        return "(" + l + ".turn_until IS NULL OR " + l + ".turn_until <= " + now + " OR " + l
                + ".turn_waiter = {waiter}" + " OR " + l + ".turn_since > " + now + " - " + millis("{waited}") + ")";
    }

    private static String millis(String parameter) {
        return "CAST(" + parameter + " AS BIGINT) * INTERVAL '1 millisecond'";
    }

    private static String remaining(String row) {
        return "CAST(CEIL(EXTRACT(EPOCH FROM (" + row + ".expires_at - clock_timestamp())) * 1000) AS BIGINT)";
    }

    /**
     * The release: the compare-and-set of {@link Dialect#release}, and in the same statement a
     * {@code pg_notify} of the key on {@link #channel()} when it freed the lock. PostgreSQL sends the
     * notification when the transaction commits, and never if it rolls back.
     *
     * <p>The release commits without waiting for its WAL to reach the disk ({@code synchronous_commit = off} for
     * its own transaction): a release lost in a crash of the database leaves the key held until the lease ends,
     * which is what a crash of its holder does too; a later acquisition of the key waits for its own commit to
     * be flushed, and with it every earlier one. Acquisitions and renewals always wait for the flush. It also
     * keeps the commit short while it holds PostgreSQL's notification-queue lock, which serialises the commits
     * of every notifying transaction in the database: a release waiting for a disk flush under it held up
     * every other release.
     */
    @Override
    public boolean release(Connection c, String key, String owner, CallBound bound) throws SQLException {
        return releaseExclusive(c, key, owner, bound) == Found.EXCLUSIVE;
    }

    /** {@inheritDoc} In the release's one statement ({@link #release}). */
    @Override
    public Found releaseExclusive(Connection c, String key, String owner, CallBound bound) throws SQLException {
        try (PreparedStatement ps = prepare(c, releaseSql, bound, true)) {
            int p = firstParameter();
            ps.setString(p, key);
            ps.setString(p + 1, owner);
            ps.setString(p + 2, channel);
            ps.setString(p + 3, key);
            return found(ps);
        }
    }

    @Override
    public boolean handsOver() {
        return true;
    }

    /** {@inheritDoc} Waits for the key's WAL flush as an acquisition does: the next owner's token must survive a crash. */
    @Override
    public long handOver(Connection c, String key, String owner, String nextOwner, long ttlMillis, CallBound bound)
            throws SQLException {
        try (PreparedStatement ps = prepare(c, handOverSql, bound)) {
            int p = firstParameter();
            ps.setString(p, key);
            ps.setString(p + 1, owner);
            ps.setString(p + 2, nextOwner);
            ps.setLong(p + 3, ttlParameter(ttlMillis));
            ps.setString(p + 4, channel);
            try (ResultSet rs = query(ps)) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    @Override
    public boolean renew(Connection c, String key, String owner, long ttlMillis, CallBound bound) throws SQLException {
        return renewExclusive(c, key, owner, ttlMillis, bound) == Found.EXCLUSIVE;
    }

    /** {@inheritDoc} In the renewal's one statement. */
    @Override
    public Found renewExclusive(Connection c, String key, String owner, long ttlMillis, CallBound bound)
            throws SQLException {
        try (PreparedStatement ps = prepare(c, renewSql, bound)) {
            int p = firstParameter();
            ps.setLong(p, ttlParameter(ttlMillis));
            ps.setString(p + 1, key);
            ps.setString(p + 2, owner);
            ps.setString(p + 3, key);
            return found(ps);
        }
    }

    /** @return the answer of a renewal's or release's statement: a row TRUE, a row FALSE (shared leases), none */
    private Found found(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = query(ps)) {
            if (!rs.next()) {
                return Found.NOTHING;
            }
            return rs.getBoolean(1) ? Found.EXCLUSIVE : Found.SHARED;
        }
    }

    /**
     * One statement per {@value #RENEWAL_BATCH} leases, each atomic by itself (in autocommit, each batch
     * commits on its own): an {@code UPDATE ... FROM unnest(keys, owners) ... RETURNING} that extends exactly
     * the live leases of the batch and names them; a lease that is not named was lost (expired, released or
     * taken over), or is a shared one: the same statement names the batch's keys held by shared leases, when a
     * lease of the batch was not renewed.
     */
    @Override
    public Renewals renewAllExclusive(Connection c, Collection<Lease> leases, long ttlMillis, CallBound bound)
            throws SQLException {
        Set<Lease> renewed = new HashSet<>();
        Set<String> sharedKeys = new HashSet<>();
        for (List<Lease> batch : inBatches(leases, RENEWAL_BATCH)) {
            try (PreparedStatement ps = prepare(c, renewAllSql, bound)) {
                int p = firstParameter();
                Object[] keys = batch.stream().map(Lease::key).toArray();
                ps.setLong(p, ttlMillis);
                ps.setArray(p + 1, c.createArrayOf("text", keys));
                ps.setArray(
                        p + 2,
                        c.createArrayOf("text", batch.stream().map(Lease::owner).toArray()));
                ps.setArray(p + 3, c.createArrayOf("text", keys));
                ps.setInt(p + 4, batch.size());
                try (ResultSet rs = query(ps)) {
                    while (rs.next()) {
                        String owner = rs.getString(2);
                        if (owner.equals(NO_OWNER)) {
                            sharedKeys.add(rs.getString(1)); // a row without owner is no lease
                        } else {
                            renewed.add(new Lease(rs.getString(1), owner));
                        }
                    }
                }
            }
        }
        return new Renewals(renewed, sharedKeys);
    }

    @Override
    public java.util.Optional<String> releaseChannel() {
        return java.util.Optional.of(channel);
    }

    @Override
    public JpaDatabase database() {
        return JpaDatabase.POSTGRESQL;
    }

    @Override
    public AcquireResult acquire(Connection c, String key, String owner, long ttlMillis, Turn turn, CallBound bound)
            throws SQLException {
        Map<String, Object> values = turn == null
                ? Map.of("key", key, "owner", owner, "ttl", ttlMillis)
                : Map.of(
                        "key",
                        key,
                        "owner",
                        owner,
                        "ttl",
                        ttlMillis,
                        "waiter",
                        turn.waiter(),
                        "waited",
                        turn.waitedMillis(),
                        "keep",
                        turn.keepMillis());
        try (PreparedStatement ps = prepare(c, "", turn == null ? acquireSql : turnSql, bound, values);
                ResultSet rs = query(ps)) {
            if (!rs.next()) {
                // The holder committed after this statement's snapshot: held, remaining unknown.
                return AcquireResult.notAcquired();
            }
            long token = rs.getLong(1);
            if (!rs.wasNull()) {
                return AcquireResult.acquired(token);
            }
            if (turn == null) {
                return held(rs.getLong(2));
            }
            return refused(rs.getLong(3), rs.getBoolean(2));
        }
    }

    /**
     * Every statement of a store call goes out with the call's limits in front, in the same round trip: a
     * {@code set_config(..., true)} ({@code SET LOCAL}) of how long a statement waits for a row lock, of how
     * long a statement may run at all (the last resort, where other drivers get a JDBC query timeout: the
     * server ends the statement itself, and pgjdbc needs no timer task per execution), and of how long the
     * server keeps a transaction open while its client is silent between statements
     * ({@value #IDLE_IN_TRANSACTION_MILLIS} ms). pgjdbc sends both statements with one {@code Sync}: the
     * server runs them as one transaction (an implicit one in autocommit, else the store's), so the settings
     * hold for the store's statement and end with its transaction, never reaching the pool. The limits are
     * parameters (the first {@value #LIMIT_PARAMETERS}, before the statement's own: {@link #firstParameter()}),
     * so the text of each statement is always the same and the server keeps it prepared, its plan included.
     *
     * <p>The idle limit matters when the store runs in a transaction of a {@link dev.baton.jpa.TransactionRunner}:
     * an acquisition's upsert locks the key's row even when the key is held, until its transaction ends; if
     * the client is then cut off or stopped before its COMMIT arrives, that row lock would block the holder's
     * renewals until its lease ran out. The server ends such a session instead.
     */
    @Override
    protected PreparedStatement prepare(Connection c, String sql, CallBound bound) throws SQLException {
        return prepare(c, sql, bound, false);
    }

    /** As {@link #prepare(Connection, String, CallBound)}; {@code asyncCommit}: its transaction does not wait for the WAL flush. */
    private PreparedStatement prepare(Connection c, String sql, CallBound bound, boolean asyncCommit)
            throws SQLException {
        PreparedStatement ps = c.prepareStatement((asyncCommit ? ASYNC_LIMITS : SYNC_LIMITS) + sql);
        try {
            // 0 would mean "no limit": 1 ms is as close to "do not wait" as lock_timeout gets.
            long lockWait = Math.min(Integer.MAX_VALUE, Math.max(1, bound.remainingMillis()));
            ps.setString(1, Long.toString(lockWait));
            ps.setString(2, Long.toString(Math.min(Integer.MAX_VALUE, bound.queryTimeoutSeconds() * 1000L)));
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    @Override
    protected int firstParameter() {
        return LIMIT_PARAMETERS + 1;
    }

    /** Steps past the limits' row ({@link #prepare}) to the store statement's result. */
    @Override
    protected ResultSet query(PreparedStatement ps) throws SQLException {
        ps.execute();
        if (!ps.getMoreResults()) {
            throw new SQLException("the store's statement returned no rows: " + ps);
        }
        return ps.getResultSet();
    }

    /** Steps past the limits' row ({@link #prepare}) to the store statement's update count. */
    @Override
    protected int update(PreparedStatement ps) throws SQLException {
        ps.execute();
        if (ps.getMoreResults()) {
            throw new SQLException("the store's update returned rows: " + ps);
        }
        return ps.getUpdateCount();
    }

    /**
     * Every operation is one statement, atomic by itself, whose lock limits travel with it ({@link #prepare});
     * and pgjdbc switches autocommit on and off without a round trip while no transaction is open, and sends
     * no COMMIT for a transaction that ran no statement.
     */
    @Override
    public boolean autocommit() {
        return true;
    }

    /**
     * Operations run on a connection of the persistence unit's pool, outside the JPA provider's transaction: no
     * entity manager and no provider transaction per operation, only the statement (see
     * {@link #switchesAutocommitFreely()}).
     */
    @Override
    public boolean autocommitOnPooledConnection() {
        return true;
    }

    /** pgjdbc switches auto-commit by itself while no transaction is open: no round trip either way. */
    @Override
    public boolean switchesAutocommitFreely() {
        return true;
    }

    @Override
    public boolean isLockTimeout(SQLException e) {
        return "55P03".equals(e.getSQLState()); // lock_not_available
    }

    /**
     * Also a cancelled statement ({@code 57014}, query_canceled), which changed nothing: PostgreSQL reports
     * its own lock timeout as a cancel "due to user request" when the timer fires as one lock wait of the
     * statement ends and the next begins (the second wait resets the timer's flag; seen on PostgreSQL 15 with
     * 1 ms waits on a contended key, a few times in 10,000 refusals). A cancel by an administrator is retried
     * too; the call's bound ends the retries, and an acquisition out of time answers "not acquired".
     */
    @Override
    public boolean isTransient(SQLException e) {
        return super.isTransient(e) || "57014".equals(e.getSQLState());
    }

    @Override
    protected String fenceLockClause() {
        return "FOR KEY SHARE";
    }

    @Override
    protected String millisUntil(String time) {
        return "CAST(CEIL(EXTRACT(EPOCH FROM (" + time + " - clock_timestamp())) * 1000) AS BIGINT)";
    }

    @Override
    protected String nextToken() {
        return "nextval('" + sequence + "')";
    }

    @Override
    protected String insertRowIfMissing() {
        return insertRowHoldingNothing() + " ON CONFLICT (lock_key) DO NOTHING";
    }

    /**
     * {@code FOR NO KEY UPDATE}: like a renewal, it does not wait for a fenced write's {@code FOR KEY SHARE}, so a
     * shared acquisition refused by a live holder (or claiming the turn) does not wait for the holder's fenced
     * transaction; a takeover first waits for it ({@link #takeoverLockClause}). The wait is bounded by
     * {@code lock_timeout} ({@link #prepare}).
     */
    @Override
    protected String rowLockClause(CallBound bound) {
        return "FOR NO KEY UPDATE";
    }

    /** {@code FOR UPDATE}, the mode that waits for a fenced write's {@code FOR KEY SHARE}, as the upsert's. */
    @Override
    protected String takeoverLockClause() {
        return "FOR UPDATE";
    }

    /** {@code pg_notify} of the key, sent when the release's transaction commits, as {@link #release} does. */
    @Override
    protected void notifyReleased(Connection c, String key, CallBound bound) throws SQLException {
        try (PreparedStatement ps = prepare(c, "SELECT pg_notify(?, ?)", bound)) {
            ps.setString(firstParameter(), channel);
            ps.setString(firstParameter() + 1, key);
            query(ps).close();
        }
    }

    @Override
    protected String now() {
        return "clock_timestamp()";
    }

    @Override
    protected String expiryAfter(String ttlParameter) {
        return "clock_timestamp() + CAST(" + ttlParameter + " AS BIGINT) * INTERVAL '1 millisecond'";
    }

    @Override
    public void create(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            // Held until the store's transaction ends; PostgreSQL DDL is transactional.
            st.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK_ID + ")");
        }
        super.create(c);
    }

    @Override
    protected String sequenceProbeSql() {
        return "SELECT last_value FROM " + sequence;
    }
}
