package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import dev.baton.spi.AcquireResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL: an upsert whose update branch only fires on an expired row, in a CTE that also reads
 * the holder's remaining lease when it did not fire. Time is {@code clock_timestamp()} (the real
 * time at evaluation, not the transaction's start); tokens are {@code nextval} of a {@code CACHE 1}
 * sequence, so they are handed out in order to every session.
 *
 * <p>Row locks: the update branch names the key column in its {@code SET} list, which makes
 * PostgreSQL lock the conflicting row {@code FOR UPDATE} (not {@code FOR NO KEY UPDATE}); that is
 * the one mode that waits for the {@code FOR KEY SHARE} lock of a fenced write. Renewals and
 * releases are plain updates of {@code expires_at} ({@code FOR NO KEY UPDATE}), which a fence does
 * not hold up, so a holder renews while its fenced transaction is open. Lock waits are limited per
 * transaction by {@code SET LOCAL lock_timeout}.
 */
final class PostgresDialect extends Dialect {

    /** Serializes concurrent schema creation: {@code CREATE ... IF NOT EXISTS} alone can still collide. */
    private static final long SCHEMA_LOCK_ID = 0x6261746f6e4a5041L;

    /**
     * How long the server keeps a store transaction whose client has gone silent between statements:
     * well below a renewal's share of the shortest sensible lease (ttl/3 of 2 s), far above a round trip.
     */
    static final long IDLE_IN_TRANSACTION_MILLIS = 1_000;

    private final String acquireSql;

    PostgresDialect(String table, String sequence) {
        super(table, sequence);
        this.acquireSql = "WITH attempt AS ("
                + " INSERT INTO " + table + " AS l (lock_key, owner, token, expires_at)"
                + " VALUES (?, ?, nextval('" + sequence + "'), " + expiryAfter("?") + ")"
                + " ON CONFLICT (lock_key) DO UPDATE"
                + " SET lock_key = EXCLUDED.lock_key, owner = EXCLUDED.owner, token = nextval('" + sequence + "'),"
                + " expires_at = " + expiryAfter("?")
                + " WHERE l.expires_at <= clock_timestamp()"
                + " RETURNING l.token)"
                + " SELECT token, CAST(NULL AS BIGINT) FROM attempt"
                + " UNION ALL"
                + " SELECT NULL, CAST(CEIL(EXTRACT(EPOCH FROM (h.expires_at - clock_timestamp())) * 1000) AS BIGINT)"
                + " FROM " + table + " h WHERE h.lock_key = ? AND NOT EXISTS (SELECT 1 FROM attempt)";
    }

    @Override
    public JpaDatabase database() {
        return JpaDatabase.POSTGRESQL;
    }

    @Override
    public AcquireResult acquire(Connection c, String key, String owner, long ttlMillis, CallBound bound)
            throws SQLException {
        try (PreparedStatement ps = prepare(c, acquireSql, bound)) {
            ps.setString(1, key);
            ps.setString(2, owner);
            ps.setLong(3, ttlMillis);
            ps.setLong(4, ttlMillis);
            ps.setString(5, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // The holder committed after this statement's snapshot: held, remaining unknown.
                    return AcquireResult.notAcquired();
                }
                long token = rs.getLong(1);
                if (!rs.wasNull()) {
                    return AcquireResult.acquired(token);
                }
                return held(rs.getLong(2));
            }
        }
    }

    /**
     * Limits, for the store's own transaction only ({@code set_config(..., true)} is {@code SET LOCAL}),
     * how long a statement waits for a row lock, and how long the server keeps the transaction open
     * while its client is silent between statements ({@value #IDLE_IN_TRANSACTION_MILLIS} ms). The
     * second matters for everyone else: an acquisition's upsert locks the key's row even when the key is
     * held, until its transaction ends; if the client is then cut off or stopped before its COMMIT
     * arrives, that row lock would block the holder's renewals until its lease ran out. The server ends
     * such a session instead (one round trip, with the lock timeout).
     */
    @Override
    public void limitLockWaits(Connection c, CallBound bound) throws SQLException {
        // 0 would mean "no limit": 1 ms is as close to "do not wait" as lock_timeout gets.
        long millis = Math.min(Integer.MAX_VALUE, Math.max(1, bound.remainingMillis()));
        try (Statement st = c.createStatement()) {
            st.executeQuery("SELECT set_config('lock_timeout', '" + millis + "', true),"
                    + " set_config('idle_in_transaction_session_timeout', '" + IDLE_IN_TRANSACTION_MILLIS + "', true)")
                    .close();
        }
    }

    @Override
    public boolean isLockTimeout(SQLException e) {
        return "55P03".equals(e.getSQLState()); // lock_not_available
    }

    @Override
    protected String renewalLockClause() {
        return "FOR NO KEY UPDATE"; // what the update takes anyway; does not wait for a fence's FOR KEY SHARE
    }

    @Override
    protected String fenceLockClause() {
        return "FOR KEY SHARE";
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
