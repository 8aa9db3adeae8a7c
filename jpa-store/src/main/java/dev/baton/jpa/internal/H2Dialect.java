package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * H2 2.x: {@code MERGE INTO ... USING} whose update branch only fires on an expired row, read back
 * with {@code SELECT ... FROM FINAL TABLE (...)}. Two first acquisitions of a new key can collide on
 * the primary key; that and H2's concurrent-update error are retried. When the key is held, a second
 * query in the same transaction reads the remaining lease (H2 runs embedded: no extra round trip).
 *
 * <p>Time: H2's {@code CURRENT_TIMESTAMP} stands still for a whole transaction, so a statement that
 * waited for a row would write a lease that started before the wait. The clock here is the start of
 * the running statement (from {@code INFORMATION_SCHEMA.SESSIONS}), and every store call first locks
 * its rows with {@code SELECT ... FOR UPDATE WAIT <the call's time left>} ({@link #lockRows}), so the
 * statement that checks and writes does not wait any more. H2 has only exclusive row locks: a fence
 * locks the key's row {@code FOR UPDATE}, and a holder's renewal waits for its fenced transaction.
 *
 * <p>Turns: a first {@code WHEN MATCHED} takes the key (free, and its turn free, expired, the waiter's
 * or a younger waiter's) and clears the turn; with a turn, a second one claims the turn. A row that
 * comes back with a turn waiter was claimed, not taken. A waiter's repeated poll that could take neither
 * is answered by a read, before any row lock ({@link Dialect#refusedByRead}).
 */
final class H2Dialect extends Dialect {

    /** The start of the running statement by the database clock (CURRENT_TIMESTAMP is the transaction's). */
    private static final String STATEMENT_START =
            "(SELECT EXECUTING_STATEMENT_START FROM INFORMATION_SCHEMA.SESSIONS" + " WHERE SESSION_ID = SESSION_ID())";

    /** H2's GENERAL_ERROR_1. */
    private static final int GENERAL_ERROR = 50000;

    /** The longest wait H2's {@code FOR UPDATE WAIT} takes (2,147,483.647 s). */
    private static final long MAX_WAIT_MILLIS = Integer.MAX_VALUE;

    /** H2's LOCK_TIMEOUT_1: a row lock not granted in time. */
    private static final int LOCK_TIMEOUT = 50200;

    private final String acquireSql;
    private final String turnSql;
    private final String remainingSql;
    private final String pollSql;

    H2Dialect(String table, String sequence) {
        super(table, sequence);
        String merge = "SELECT token, turn_waiter FROM FINAL TABLE (MERGE INTO " + table + " l"
                + " USING (VALUES (CAST(? AS VARCHAR(500)), CAST(? AS VARCHAR(64)), CAST(? AS BIGINT),"
                + " CAST(? AS VARCHAR(64)), CAST(? AS BIGINT), CAST(? AS BIGINT))) s(k, o, ttl, w, waited, keep)"
                + " ON l.lock_key = s.k";
        // never at or below the row's last token, also after the sequence went back (RESTART, a restore)
        String take = " THEN UPDATE SET owner = s.o, token = GREATEST(NEXT VALUE FOR " + sequence
                + ", l.token + 1), expires_at = "
                + expiryAfter("s.ttl") + ", turn_waiter = NULL, turn_since = NULL, turn_until = NULL";
        String insert = " WHEN NOT MATCHED THEN INSERT (lock_key, owner, token, expires_at)"
                + " VALUES (s.k, s.o, NEXT VALUE FOR " + sequence + ", " + expiryAfter("s.ttl") + "))";
        // The clock is the statement's start: every condition of the MERGE sees the same time. The
        // first WHEN that matches applies: take the key, else claim the turn (with a turn only).
        String free = "l.expires_at <= " + now();
        String turnFree = "(l.turn_until IS NULL OR l.turn_until <= " + now() + ")";
        String claimable = "(" + turnFree + " OR l.turn_waiter = s.w OR l.turn_since > DATEADD(MILLISECOND, -s.waited, "
                + now() + "))";
        this.acquireSql = merge + " WHEN MATCHED AND " + free + " AND " + turnFree + take + insert;
        this.turnSql = merge + " WHEN MATCHED AND " + free + " AND " + claimable + take
                + " WHEN MATCHED AND " + claimable + " THEN UPDATE SET turn_waiter = s.w,"
                + " turn_since = DATEADD(MILLISECOND, -s.waited, " + now() + "), turn_until = " + expiryAfter("s.keep")
                + insert;
        // A waiter's poll read (Dialect.refusedByRead): refused while a live lease holds the key and a live turn
        // belongs to another waiter that has waited at least as long (one it may not take, see claimable). The
        // clock is read once, into c.n.
        this.pollSql = "SELECT l.expires_at > c.n AND l.turn_until > c.n AND l.turn_waiter IS DISTINCT FROM ?"
                + " AND l.turn_since <= DATEADD(MILLISECOND, -CAST(? AS BIGINT), c.n),"
                + " DATEDIFF(MILLISECOND, c.n, l.expires_at) FROM " + table + " l, (SELECT " + now() + " AS n) c"
                + " WHERE l.lock_key = ?";
        this.remainingSql = "SELECT DATEDIFF(MILLISECOND, " + now() + ", expires_at),"
                + " COALESCE(turn_waiter = ? AND turn_until > " + now() + ", FALSE) FROM " + table
                + " WHERE lock_key = ?";
    }

    @Override
    public JpaDatabase database() {
        return JpaDatabase.H2;
    }

    @Override
    public AcquireResult acquire(Connection c, String key, String owner, long ttlMillis, Turn turn, CallBound bound)
            throws SQLException {
        if (isRepeatedPoll(turn)) {
            try (PreparedStatement read = prepare(c, pollSql, bound)) {
                read.setString(1, turn.waiter());
                read.setLong(2, turn.waitedMillis());
                read.setString(3, key);
                AcquireResult refused = refusedByRead(read);
                if (refused != null) {
                    return refused; // no row lock: H2's are exclusive and would hold up the holder's renewal
                }
            }
        }
        lockRows(c, List.of(key), bound);
        try (PreparedStatement ps = prepare(c, turn == null ? acquireSql : turnSql, bound)) {
            ps.setString(1, key);
            ps.setString(2, owner);
            ps.setLong(3, ttlMillis);
            ps.setString(4, turn == null ? null : turn.waiter());
            ps.setLong(5, turn == null ? 0 : turn.waitedMillis());
            ps.setLong(6, turn == null ? 1 : turn.keepMillis());
            try (ResultSet rs = ps.executeQuery()) {
                // a row whose turn was cleared was taken; one whose turn is now the caller's was claimed
                if (rs.next() && rs.getString(2) == null) {
                    return AcquireResult.acquired(rs.getLong(1));
                }
            }
        }
        // The row is locked by this transaction (lockRows): what it holds now is what the MERGE left.
        try (PreparedStatement ps = prepare(c, remainingSql, bound)) {
            ps.setString(1, turn == null ? null : turn.waiter());
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return AcquireResult.notAcquired();
                }
                return refused(rs.getLong(1), rs.getBoolean(2));
            }
        }
    }

    /**
     * Per {@value Dialect#BATCH_CHUNK} leases, in the store's transaction: the rows are locked first (so the
     * clock of the update is not stale, see {@link #lockRows}), then one {@code UPDATE} extends the live
     * leases among them and {@code FINAL TABLE} names them; a lease that is not named was lost, or is a shared one
     * (a read of the lost leases' keys tells).
     */
    @Override
    public Renewals renewAllExclusive(Connection c, Collection<Lease> leases, long ttlMillis, CallBound bound)
            throws SQLException {
        Set<Lease> renewed = new HashSet<>();
        for (List<Lease> chunk : inBatches(leases, BATCH_CHUNK)) {
            lockRows(c, chunk.stream().map(Lease::key).distinct().toList(), bound);
            try (PreparedStatement ps = prepare(
                    c,
                    "SELECT lock_key, owner FROM FINAL TABLE (UPDATE " + table + " SET expires_at = "
                            + expiryAfter("?") + " WHERE (" + leaseMatch(chunk.size()) + ") AND expires_at > "
                            + now() + ")",
                    bound)) {
                ps.setLong(1, ttlMillis);
                bindLeases(ps, 2, chunk);
                try (ResultSet rs = query(ps)) {
                    readLeases(rs, renewed);
                }
            }
        }
        List<String> lostKeys = leases.stream()
                .filter(lease -> !renewed.contains(lease))
                .map(Lease::key)
                .toList();
        return new Renewals(renewed, lostKeys.isEmpty() ? Set.of() : sharedKeysOf(c, lostKeys, bound));
    }

    @Override
    protected void lockRows(Connection c, List<String> keys, CallBound bound) throws SQLException {
        String sql = "SELECT lock_key FROM " + table + " WHERE lock_key IN ("
                + String.join(", ", Collections.nCopies(keys.size(), "?")) + ") ORDER BY lock_key "
                + rowLockClause(bound);
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            for (int i = 0; i < keys.size(); i++) {
                ps.setString(i + 1, keys.get(i));
            }
            ps.executeQuery().close();
        }
    }

    /**
     * No statement timeout on H2. H2 turns {@code setQueryTimeout} into a session {@code SET QUERY_TIMEOUT}, and
     * every {@code SET} makes H2 compile again each prepared statement of the database, the application's too: with
     * it, parsing was most of the store's time on H2. What can wait on H2 is a lock, and those are bounded without
     * it: the rows are locked first with the call's time left ({@link #rowLockClause}), and an insert of a new key
     * waits for another one at most H2's own {@code LOCK_TIMEOUT}. Embedded, there is no network to stop answering;
     * over H2's TCP server the statement timeout is the server's to enforce, so it would not end a wait on a server
     * that stopped answering either.
     */
    @Override
    protected PreparedStatement prepare(Connection c, String sql, CallBound bound) throws SQLException {
        return c.prepareStatement(sql);
    }

    @Override
    public boolean isLockTimeout(SQLException e) {
        return e.getErrorCode() == LOCK_TIMEOUT;
    }

    /**
     * {@code FOR UPDATE} with the call's time left: H2's statements carry no lock wait of their own, and take none
     * as a parameter. The wait is cut to three significant digits (9,987 ms waits 9.98 s), less than 1 % short of the
     * call's time left, so that the calls of one bound write the same statement and H2 can keep it prepared.
     */
    @Override
    protected String rowLockClause(CallBound bound) {
        long millis = Math.min(MAX_WAIT_MILLIS, bound.remainingMillis());
        if (millis == 0) {
            return "FOR UPDATE NOWAIT";
        }
        long unit = 1;
        while (millis / unit >= 1000) {
            unit *= 10;
        }
        long wait = millis / unit * unit;
        long fraction = wait % 1000;
        return "FOR UPDATE WAIT " + wait / 1000 + (fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".") + fraction;
    }

    @Override
    protected String millisUntil(String time) {
        return "DATEDIFF(MILLISECOND, " + now() + ", " + time + ")";
    }

    @Override
    protected String nextToken() {
        return "NEXT VALUE FOR " + sequence;
    }

    /** A {@code MERGE} that only inserts; two at once for a new key collide on the primary key and are retried. */
    @Override
    protected String insertRowIfMissing() {
        return "MERGE INTO " + table + " l USING (VALUES (CAST(? AS VARCHAR(500)))) s(k) ON l.lock_key = s.k"
                + " WHEN NOT MATCHED THEN INSERT (lock_key, owner, token, expires_at) VALUES (s.k, '"
                + NO_OWNER + "', 0, " + pastExpiry() + ")";
    }

    /** {@code SELECT column FROM FINAL TABLE (insert)}: H2 has no {@code RETURNING}. */
    @Override
    protected String returning(String insert, String column) {
        return "SELECT " + column + " FROM FINAL TABLE (" + insert + ")";
    }

    @Override
    protected String now() {
        return STATEMENT_START;
    }

    @Override
    protected String expiryAfter(String ttlParameter) {
        return "DATEADD(MILLISECOND, CAST(" + ttlParameter + " AS BIGINT), " + now() + ")";
    }

    @Override
    protected String sequenceProbeSql() {
        return "SELECT NEXT VALUE FOR " + sequence;
    }

    @Override
    public boolean isTransient(SQLException e) {
        String state = e.getSQLState();
        // 23505: two MERGEs inserted the same new key; 90131: concurrent update of the same row.
        return super.isTransient(e) || "23505".equals(state) || "90131".equals(state) || sessionsRace(e);
    }

    /** The sessions race below is H2's own fault, not contention on the key: retried even past the call's bound. */
    @Override
    public boolean isGlitch(SQLException e) {
        return sessionsRace(e);
    }

    /**
     * H2 2.3 can fail reading {@code INFORMATION_SCHEMA.SESSIONS} (our clock) while another session ends:
     * a general error wrapping a {@code NullPointerException} on that session's transaction (its message
     * names either that class or the statement, which reads the view). Nothing was written (the statement
     * failed as a whole and the store's transaction is rolled back): try again.
     */
    private static boolean sessionsRace(SQLException e) {
        String message = e.getMessage();
        return e.getErrorCode() == GENERAL_ERROR
                && message != null
                && message.contains("NullPointerException")
                && (message.contains("org.h2.mvstore.tx.Transaction")
                        || message.contains("INFORMATION_SCHEMA.SESSIONS"));
    }
}
