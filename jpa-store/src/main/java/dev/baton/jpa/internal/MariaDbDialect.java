package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import dev.baton.spi.AcquireResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * MariaDB 10.5+: {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}.
 *
 * <p>How the token comes back in the same statement: the insert branch draws {@code NEXTVAL} in
 * {@code VALUES} (always evaluated, also on a duplicate). The update branch assigns left to right:
 * first {@code token = IF(expired, NEXTVAL(seq), token)}, then {@code owner} and {@code expires_at}
 * change only {@code IF(token = LASTVAL(seq))} - that is, only if this statement's own draw landed
 * in the row. So the expiry is compared once, and the later assignments cannot see a half-updated
 * row. {@code RETURNING} reports the row as it is after the statement: {@code token = LASTVAL(seq)}
 * is true exactly when this statement took the key (an untouched row keeps an older token; the
 * sequence never hands out a value twice).
 *
 * <p>Time is {@code SYSDATE(6)} (real time when evaluated) under {@code SET STATEMENT time_zone =
 * '+00:00'}, so expiries are UTC whatever a connection's time zone. The key column must compare
 * bytes with NO PAD ({@code utf8mb4_nopad_bin}); the store checks it when it connects.
 */
final class MariaDbDialect extends Dialect {

    private static final String UTC = "SET STATEMENT time_zone = '+00:00' FOR ";

    private final String acquireSql;

    MariaDbDialect(String table, String sequence) {
        super(table, sequence);
        this.acquireSql = UTC + "INSERT INTO " + table + " (lock_key, owner, token, expires_at)"
                + " VALUES (?, ?, NEXTVAL(" + sequence + "), " + expiryAfter("?") + ")"
                + " ON DUPLICATE KEY UPDATE"
                + " token = IF(expires_at <= SYSDATE(6), NEXTVAL(" + sequence + "), token),"
                + " owner = IF(token = LASTVAL(" + sequence + "), VALUE(owner), owner),"
                + " expires_at = IF(token = LASTVAL(" + sequence + "), VALUE(expires_at), expires_at)"
                + " RETURNING token, token = LASTVAL(" + sequence + "),"
                + " CEIL(TIMESTAMPDIFF(MICROSECOND, SYSDATE(6), expires_at) / 1000)";
    }

    @Override
    public JpaDatabase database() {
        return JpaDatabase.MARIADB;
    }

    @Override
    public AcquireResult acquire(Connection c, String key, String owner, long ttlMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(acquireSql)) {
            ps.setString(1, key);
            ps.setString(2, owner);
            ps.setLong(3, ttlParameter(ttlMillis));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("INSERT ... RETURNING returned no row");
                }
                if (rs.getBoolean(2)) {
                    return AcquireResult.acquired(rs.getLong(1));
                }
                return held(rs.getLong(3));
            }
        }
    }

    @Override
    protected long ttlParameter(long ttlMillis) {
        return ttlMillis * 1000;
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
    protected String sequenceProbeSql() {
        return "SELECT next_not_cached_value FROM " + sequence;
    }
}
