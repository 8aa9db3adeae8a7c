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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MariaDB 10.5+: {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}.
 *
 * <p>How the token comes back in the same statement: the insert branch draws {@code NEXTVAL} in
 * {@code VALUES} (always evaluated, also on a duplicate). The update branch assigns left to right:
 * first {@code token = IF(expired, -GREATEST(NEXTVAL(seq), token + 1), token)}, then {@code owner},
 * {@code expires_at} and the turn columns change only {@code IF(token < 0)} - that is, only if this
 * statement took the key - and the last assignment, {@code token = ABS(token)}, turns the mark back.
 * So the expiry is compared once, the later assignments cannot see a half-updated row, and the new
 * token is above the row's last one even when the sequence went back ({@code ALTER SEQUENCE ...
 * RESTART}, a restore from an older backup). {@code RETURNING} reports the row as it is after the
 * statement: {@code owner = <this acquisition's owner> AND token >= LASTVAL(seq)} is true when this statement
 * inserted the row ({@code VALUES} always draws, so {@code LASTVAL} is this statement's) or took it over (its
 * token is its own draw or above). A row it did not touch has another owner - so it answers false whatever the
 * sequence did - or is this very acquisition's live lease, whose token was drawn before this statement's draw,
 * so below {@code LASTVAL}; only when the sequence went back meanwhile does that case answer true (to the
 * holder itself, with its current token). It used to be {@code token = LASTVAL(seq)} alone, which a sequence
 * that went back makes true for another holder's row this statement did not touch: two holders.
 *
 * <p>Time is {@code SYSDATE(6)} (real time when evaluated) under {@code SET STATEMENT time_zone =
 * '+00:00'}, so expiries are UTC whatever a connection's time zone. The key column must compare
 * bytes with NO PAD ({@code utf8mb4_nopad_bin}); the store checks it when it connects.
 *
 * <p>The update branch computes the new expiry itself, after the row lock is granted (not
 * {@code VALUE(expires_at)}, which {@code VALUES} computed when the statement started: after a wait
 * for the row, that lease would already be over). Lock waits are limited per statement: {@code SET
 * STATEMENT innodb_lock_wait_timeout} (whole seconds; 0 does not wait) and {@code max_statement_time}
 * (fractions of a second; it also ends a row lock wait). A fence reads the key's row {@code LOCK IN
 * SHARE MODE} at every isolation level (InnoDB has no weaker lock that a takeover waits for), so a
 * holder's own renewal also waits for its fenced transaction to end.
 *
 * <p>A waiter's repeated poll reads the row first and answers from the read alone when the upsert would
 * change nothing for it (see {@link #acquire}).
 *
 * <p>Turns: the take is decided once, in the first assignment, with the turn condition added; the turn
 * columns come last and decide from what is already assigned. A turn claim takes the row's exclusive
 * lock like every acquisition, so it too waits (within its bound) for a fenced write.
 */
final class MariaDbDialect extends Dialect {

    private static final String UTC = "SET STATEMENT time_zone = '+00:00' FOR ";

    /** ER_LOCK_WAIT_TIMEOUT and ER_STATEMENT_TIMEOUT (max_statement_time). */
    private static final int LOCK_WAIT_TIMEOUT = 1205;

    private static final int STATEMENT_TIMEOUT = 1969;
    private static final long MAX_LOCK_WAIT_SECONDS = 1_073_741_824L;
    private static final long MAX_STATEMENT_MILLIS = 31_536_000_000L;

    /** Above this an idle transaction of a silent client outlasts a short lease's renewal window. */
    private static final long MAX_IDLE_TRANSACTION_SECONDS = 1;

    /**
     * Leases per renewal statement: two parameters each (the driver sends them as text in one statement);
     * 10,000 held locks are 10 short statements.
     */
    static final int RENEWAL_BATCH = 1_000;

    private static final System.Logger LOG = System.getLogger("dev.baton.jpa.JpaLockStore");

    private final NamedSql acquireSql;
    private final NamedSql turnSql;
    private final NamedSql pollSql;

    MariaDbDialect(String table, String sequence) {
        super(table, sequence);
        String next = "NEXTVAL(" + sequence + ")";
        // The first assignment decides the take and marks it by a negative token, which the last one turns
        // back: never at or below the row's last token, also after the sequence went back.
        String take = "-GREATEST(" + next + ", token + 1)";
        String took = "token < 0";
        String unmark = " token = ABS(token)";
        // RETURNING: whether this statement took the key (see the class comment)
        String acquired = "owner = {owner} AND token >= LASTVAL(" + sequence + ")";
        String insert = "INSERT INTO " + table + " (lock_key, owner, token, expires_at)"
                + " VALUES ({key}, {owner}, " + next + ", " + expiryAfter("{ttl}") + ")"
                + " ON DUPLICATE KEY UPDATE";
        String takeLock = " owner = IF(" + took + ", VALUE(owner), owner)," + " expires_at = IF(" + took + ", "
                + expiryAfter("{ttl}") + ", expires_at),";
        String remaining = "CEIL(TIMESTAMPDIFF(MICROSECOND, SYSDATE(6), expires_at) / 1000)";
        this.acquireSql = NamedSql.of(insert
                + " token = IF(expires_at <= SYSDATE(6) AND (turn_until IS NULL OR turn_until <= SYSDATE(6)), "
                + take + ", token)," + takeLock
                + " turn_waiter = IF(" + took + ", NULL, turn_waiter),"
                + " turn_since = IF(" + took + ", NULL, turn_since),"
                + " turn_until = IF(" + took + ", NULL, turn_until)," + unmark
                + " RETURNING token, " + acquired + ", " + remaining);
        // The take is decided once, by the first assignment. Then turn_waiter is decided on the turn
        // columns as they were (none is assigned before it); turn_since and turn_until follow it: the
        // turn is the caller's after the statement exactly when turn_waiter is its waiter (a waiter
        // whose turn it already was may always renew it).
        String claimable = "(turn_until IS NULL OR turn_until <= SYSDATE(6) OR turn_waiter = {waiter}"
                + " OR turn_since > SYSDATE(6) - INTERVAL {waited} MICROSECOND)";
        // A waiter's poll read first: refused while a live lease holds the key and a live turn belongs to
        // another waiter that has waited at least as long (one this waiter may not take, see claimable).
        this.pollSql = NamedSql.of("SELECT expires_at > SYSDATE(6) AND turn_until > SYSDATE(6)"
                + " AND NOT (turn_waiter <=> {waiter}) AND turn_since <= SYSDATE(6) - INTERVAL {waited} MICROSECOND, "
                + remaining + " FROM " + table + " WHERE lock_key = {key}");
        this.turnSql = NamedSql.of(insert
                + " token = IF(expires_at <= SYSDATE(6) AND " + claimable + ", " + take + ", token)," + takeLock
                + " turn_waiter = IF(" + took + ", NULL, IF(" + claimable + ", {waiter}, turn_waiter)),"
                + " turn_since = IF(" + took + ", NULL, IF(turn_waiter <=> {waiter},"
                + " SYSDATE(6) - INTERVAL {waited} MICROSECOND, turn_since)),"
                + " turn_until = IF(" + took + ", NULL, IF(turn_waiter <=> {waiter},"
                + " SYSDATE(6) + INTERVAL {keep} MICROSECOND, turn_until)),"
                + unmark
                + " RETURNING token, " + acquired + ", " + remaining + ", turn_waiter <=> {waiter}");
    }

    @Override
    public JpaDatabase database() {
        return JpaDatabase.MARIADB;
    }

    /**
     * Also checks that the server ends a transaction whose client went silent. An acquisition's
     * upsert locks the key's row even when the key is held, until its COMMIT; a client cut off or
     * stopped before that holds the row, and the holder's renewals wait for it until the lease has run
     * out. PostgreSQL's limit is set for each store transaction; MariaDB's ({@code
     * idle_transaction_timeout}, whole seconds) only per session, so the data source sets it.
     */
    @Override
    public void validate(Connection c) throws SQLException {
        super.validate(c);
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@session.idle_transaction_timeout")) {
            long seconds = rs.next() ? rs.getLong(1) : 0;
            if (seconds == 0 || seconds > MAX_IDLE_TRANSACTION_SECONDS) {
                JpaMessage.MARIADB_IDLE_TRANSACTIONS.log(LOG, seconds == 0 ? "for ever" : "for " + seconds + " s");
            }
        }
    }

    @Override
    public AcquireResult acquire(Connection c, String key, String owner, long ttlMillis, Turn turn, CallBound bound)
            throws SQLException {
        Map<String, Object> values = turn == null
                ? Map.of("key", key, "owner", owner, "ttl", ttlParameter(ttlMillis))
                : Map.of(
                        "key",
                        key,
                        "owner",
                        owner,
                        "ttl",
                        ttlParameter(ttlMillis),
                        "waiter",
                        turn.waiter(),
                        "waited",
                        ttlParameter(turn.waitedMillis()),
                        "keep",
                        ttlParameter(turn.keepMillis()));
        if (isRepeatedPoll(turn)) {
            try (PreparedStatement read = prepare(c, statementPrefix(bound), pollSql, bound, values)) {
                AcquireResult refused = refusedByRead(read);
                if (refused != null) {
                    return refused; // no sequence value drawn: the upsert's VALUES draws one even when it takes nothing
                }
            }
        }
        try (PreparedStatement ps =
                        prepare(c, statementPrefix(bound), turn == null ? acquireSql : turnSql, bound, values);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("INSERT ... RETURNING returned no row");
            }
            if (rs.getBoolean(2)) {
                return AcquireResult.acquired(rs.getLong(1));
            }
            return refused(rs.getLong(3), turn != null && rs.getBoolean(4));
        }
    }

    /**
     * Per {@value #RENEWAL_BATCH} leases, one {@code UPDATE} that extends exactly the live leases of the batch,
     * atomic by itself (in autocommit, its own short transaction): each row is checked under its row lock, on
     * its newest version. MariaDB's {@code UPDATE} has no {@code RETURNING}, so the update count tells: when it
     * equals the batch's size every lease was renewed (a row matches at most one lease: it has one owner), and
     * the batch is done in one statement. Otherwise a plain read names the leases that are live now, and those
     * are the ones the update renewed: a lease it did not renew was expired, released, taken over or deleted,
     * and none of these comes back to life under the same owner (an owner token names one acquisition). A
     * renewed lease that ends or is released before the read is reported lost, which only errs on the safe
     * side. The same read names the batch's keys that shared leases hold (their rows have no owner).
     */
    @Override
    public Renewals renewAllExclusive(Connection c, Collection<Lease> leases, long ttlMillis, CallBound bound)
            throws SQLException {
        Set<Lease> renewed = new HashSet<>();
        Set<String> sharedKeys = new HashSet<>();
        for (List<Lease> batch : inBatches(leases, RENEWAL_BATCH)) {
            int updated;
            try (PreparedStatement ps = prepare(
                    c,
                    statementPrefix(bound) + "UPDATE " + table + " SET expires_at = " + expiryAfter("?") + " WHERE ("
                            + leaseMatch(batch.size()) + ") AND expires_at > " + now(),
                    bound)) {
                ps.setLong(1, ttlParameter(ttlMillis));
                bindLeases(ps, 2, batch);
                updated = update(ps);
            }
            if (updated == batch.size()) {
                renewed.addAll(batch);
            } else {
                renewed.addAll(liveOf(c, batch, updated, sharedKeys, bound));
            }
        }
        return new Renewals(renewed, sharedKeys);
    }

    /**
     * The leases of {@code batch} that are live now, after an update that renewed {@code updated} of them; adds
     * the batch's keys that shared leases hold to {@code sharedKeys}.
     */
    private List<Lease> liveOf(Connection c, List<Lease> batch, int updated, Set<String> sharedKeys, CallBound bound)
            throws SQLException {
        List<Lease> live = new ArrayList<>();
        List<String> keys = batch.stream().map(Lease::key).distinct().toList();
        try (PreparedStatement ps = prepare(
                c,
                statementPrefix(bound) + "SELECT lock_key, owner FROM " + table + " WHERE ((" + leaseMatch(batch.size())
                        + ") OR (lock_key IN (" + String.join(", ", Collections.nCopies(keys.size(), "?"))
                        + ") AND owner = '" + NO_OWNER + "')) AND expires_at > " + now(),
                bound)) {
            bindLeases(ps, 1, batch);
            for (int i = 0; i < keys.size(); i++) {
                ps.setString(1 + 2 * batch.size() + i, keys.get(i));
            }
            try (ResultSet rs = query(ps)) {
                while (rs.next()) {
                    String owner = rs.getString(2);
                    if (owner.equals(NO_OWNER)) {
                        sharedKeys.add(rs.getString(1)); // a row without owner is no lease (owners are never empty)
                    } else {
                        live.add(new Lease(rs.getString(1), owner));
                    }
                }
            }
        }
        if (live.size() > updated) {
            // An owner token acquired a key again after its lease was lost: the read cannot tell which were renewed.
            throw new SQLException("renewing " + batch.size() + " leases updated " + updated + " rows, but "
                    + live.size() + " of them are live now: an owner token was used for two acquisitions");
        }
        return live;
    }

    /**
     * Every operation runs in autocommit: acquire, renew, release, leave a turn and inspect are each one
     * statement, atomic by itself, with its lock wait limits in its own {@code SET STATEMENT} prefix; a
     * waiter's repeated poll is a read and, only when the read cannot refuse it, the upsert (two statements
     * whose atomicity does not depend on a common transaction: the upsert decides alone); a batch renewal is
     * one {@code UPDATE} per batch, and a read when some lease was lost.
     */
    @Override
    public boolean autocommit() {
        return true;
    }

    /** Connector/J switches autocommit with a round trip of its own: the store keeps the pool's mode instead. */
    @Override
    public boolean autocommitOnPooledConnection() {
        return true;
    }

    @Override
    protected long ttlParameter(long ttlMillis) {
        return ttlMillis * 1000;
    }

    @Override
    protected String millisUntil(String time) {
        return "CEIL(TIMESTAMPDIFF(MICROSECOND, SYSDATE(6), " + time + ") / 1000)";
    }

    @Override
    protected String nextToken() {
        return "NEXTVAL(" + sequence + ")";
    }

    /**
     * A no-op update of the existing row, which InnoDB locks (an exclusive record lock, no gap lock); unlike
     * {@code INSERT IGNORE}, it keeps every other error an error.
     */
    @Override
    protected boolean insertingLocksTheRow() {
        return true;
    }

    @Override
    protected String insertRowIfMissing() {
        return insertRowHoldingNothing() + " ON DUPLICATE KEY UPDATE token = token";
    }

    @Override
    protected String now() {
        return "SYSDATE(6)";
    }

    @Override
    protected String expiryAfter(String ttlParameter) {
        return "SYSDATE(6) + INTERVAL " + ttlParameter + " MICROSECOND";
    }

    @Override
    protected String pastExpiry() {
        return "TIMESTAMP '1970-01-01 00:00:00'";
    }

    @Override
    protected String statementPrefix() {
        return UTC;
    }

    @Override
    protected String statementPrefix(CallBound bound) {
        long millis = Math.min(MAX_STATEMENT_MILLIS, bound.remainingMillis());
        long seconds = Math.min(MAX_LOCK_WAIT_SECONDS, (millis + 999) / 1000);
        // max_statement_time = 0 would mean "no limit"; with no time left, innodb_lock_wait_timeout = 0 does not wait.
        return "SET STATEMENT time_zone = '+00:00', innodb_lock_wait_timeout = " + seconds
                + (millis > 0 ? String.format(Locale.ROOT, ", max_statement_time = %.3f", millis / 1000.0) : "")
                + " FOR ";
    }

    @Override
    protected PreparedStatement prepare(Connection c, String sql, CallBound bound) throws SQLException {
        // No JDBC query timeout: the driver would send it as one more max_statement_time.
        return c.prepareStatement(sql);
    }

    @Override
    public boolean isLockTimeout(SQLException e) {
        return e.getErrorCode() == LOCK_WAIT_TIMEOUT || e.getErrorCode() == STATEMENT_TIMEOUT;
    }

    @Override
    protected String fenceLockClause() {
        return "LOCK IN SHARE MODE";
    }

    @Override
    protected String sequenceProbeSql() {
        return "SELECT next_not_cached_value FROM " + sequence;
    }
}
