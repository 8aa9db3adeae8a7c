package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import dev.baton.spi.AcquireResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * H2 2.x: {@code MERGE INTO ... USING} whose update branch only fires on an expired row, read back
 * with {@code SELECT ... FROM FINAL TABLE (...)}. Two first acquisitions of a new key can collide on
 * the primary key; that and H2's concurrent-update error are retried. When the key is held, a second
 * query in the same transaction reads the remaining lease (H2 runs embedded: no extra round trip).
 */
final class H2Dialect extends Dialect {

    private final String acquireSql;
    private final String remainingSql;

    H2Dialect(String table, String sequence) {
        super(table, sequence);
        this.acquireSql = "SELECT token FROM FINAL TABLE (MERGE INTO " + table + " l"
                + " USING (VALUES (CAST(? AS VARCHAR(500)), CAST(? AS VARCHAR(64)), CAST(? AS BIGINT))) s(k, o, ttl)"
                + " ON l.lock_key = s.k"
                + " WHEN MATCHED AND l.expires_at <= CURRENT_TIMESTAMP THEN UPDATE SET owner = s.o,"
                + " token = NEXT VALUE FOR " + sequence + ", expires_at = " + expiryAfter("s.ttl")
                + " WHEN NOT MATCHED THEN INSERT (lock_key, owner, token, expires_at)"
                + " VALUES (s.k, s.o, NEXT VALUE FOR " + sequence + ", " + expiryAfter("s.ttl") + "))";
        this.remainingSql = "SELECT DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP, expires_at) FROM " + table + " WHERE lock_key = ?";
    }

    @Override
    public JpaDatabase database() {
        return JpaDatabase.H2;
    }

    @Override
    public AcquireResult acquire(Connection c, String key, String owner, long ttlMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(acquireSql)) {
            ps.setString(1, key);
            ps.setString(2, owner);
            ps.setLong(3, ttlMillis);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return AcquireResult.acquired(rs.getLong(1));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(remainingSql)) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return held(rs.next() ? rs.getLong(1) : 0);
            }
        }
    }

    @Override
    protected String now() {
        return "CURRENT_TIMESTAMP";
    }

    @Override
    protected String expiryAfter(String ttlParameter) {
        return "DATEADD(MILLISECOND, CAST(" + ttlParameter + " AS BIGINT), CURRENT_TIMESTAMP)";
    }

    @Override
    protected String sequenceProbeSql() {
        return "SELECT NEXT VALUE FOR " + sequence;
    }

    @Override
    public boolean isTransient(SQLException e) {
        String state = e.getSQLState();
        // 23505: two MERGEs inserted the same new key; 90131: concurrent update of the same row.
        return super.isTransient(e) || "23505".equals(state) || "90131".equals(state) || "HYT00".equals(state);
    }
}
