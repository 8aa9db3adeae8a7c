package dev.baton.jpa.internal.advisory;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.JpaDatabase;
import dev.baton.jpa.internal.CallBound;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The statements of the advisory mode on one database: take a session lock without waiting, check that
 * this session holds it, free it, and draw a fencing token from the store's sequence. Each is one round
 * trip on the connection that holds (or is to hold) the lock.
 */
abstract class AdvisorySql {

    private final String sequence;

    AdvisorySql(String sequence) {
        this.sequence = sequence;
    }

    /**
     * The statements for a database.
     *
     * @param database the database the store connected to
     * @param sequence the fencing sequence (a valid identifier)
     * @return the statements
     * @throws LockConfigurationException if the database has no session-level advisory locks
     */
    static AdvisorySql of(JpaDatabase database, String sequence) {
        return switch (database) {
            case POSTGRESQL -> new Postgres(sequence);
            case MARIADB -> new MariaDb(sequence);
            case H2 ->
                throw new LockConfigurationException("baton.jpa.mode=advisory needs PostgreSQL or MariaDB: H2 has no"
                        + " advisory (session) locks. Use baton.jpa.mode=table (the default) on H2");
        };
    }

    /** The namespace of the store's locks: its table, qualified by the schema (PostgreSQL) or database (MariaDB) it resolves to. */
    String namespace(Connection c, String table, CallBound bound) throws SQLException {
        return table.contains(".") ? table : string(c, currentSchemaSql(), bound) + "." + table;
    }

    abstract String currentSchemaSql();

    abstract boolean tryLock(Connection c, LockName name, CallBound bound) throws SQLException;

    abstract boolean holds(Connection c, LockName name, CallBound bound) throws SQLException;

    abstract boolean unlock(Connection c, LockName name, CallBound bound) throws SQLException;

    abstract String nextTokenSql(String sequence);

    long nextToken(Connection c, CallBound bound) throws SQLException {
        try (PreparedStatement ps = prepare(c, nextTokenSql(sequence), bound);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            long token = rs.getLong(1);
            if (token <= 0) {
                throw new SQLException(
                        "the fencing sequence " + sequence + " gave " + token + ", not a positive token");
            }
            return token;
        }
    }

    static PreparedStatement prepare(Connection c, String sql, CallBound bound) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        ps.setQueryTimeout(bound.queryTimeoutSeconds());
        return ps;
    }

    static boolean bool(Connection c, String sql, CallBound bound, Object parameter) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            ps.setObject(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    static String string(Connection c, String sql, CallBound bound) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, bound);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** {@code pg_try_advisory_lock(bigint)}: session locks, per database, on a 64-bit id. */
    private static final class Postgres extends AdvisorySql {

        Postgres(String sequence) {
            super(sequence);
        }

        @Override
        String currentSchemaSql() {
            return "SELECT current_schema()";
        }

        @Override
        boolean tryLock(Connection c, LockName name, CallBound bound) throws SQLException {
            return bool(c, "SELECT pg_try_advisory_lock(?)", bound, name.id());
        }

        @Override
        boolean holds(Connection c, LockName name, CallBound bound) throws SQLException {
            // a bigint lock shows in pg_locks as classid = high 32 bits, objid = low 32 bits, objsubid = 1
            try (PreparedStatement ps = prepare(
                    c,
                    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                            + " AND pid = pg_backend_pid() AND granted AND objsubid = 1 AND classid::bigint = ? AND objid::bigint = ?)",
                    bound)) {
                ps.setLong(1, name.id() >>> 32);
                ps.setLong(2, name.id() & 0xFFFF_FFFFL);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && rs.getBoolean(1);
                }
            }
        }

        @Override
        boolean unlock(Connection c, LockName name, CallBound bound) throws SQLException {
            return bool(c, "SELECT pg_advisory_unlock(?)", bound, name.id());
        }

        @Override
        String nextTokenSql(String sequence) {
            return "SELECT nextval('" + sequence + "')";
        }
    }

    /** {@code GET_LOCK(name, 0)}: named session locks, server-wide. */
    private static final class MariaDb extends AdvisorySql {

        MariaDb(String sequence) {
            super(sequence);
        }

        @Override
        String currentSchemaSql() {
            return "SELECT DATABASE()"; // lock names are server-wide: the database keeps stores on different databases
            // apart
        }

        @Override
        boolean tryLock(Connection c, LockName name, CallBound bound) throws SQLException {
            return bool(c, "SELECT GET_LOCK(?, 0)", bound, name.name());
        }

        @Override
        boolean holds(Connection c, LockName name, CallBound bound) throws SQLException {
            return bool(c, "SELECT IS_USED_LOCK(?) = CONNECTION_ID()", bound, name.name());
        }

        @Override
        boolean unlock(Connection c, LockName name, CallBound bound) throws SQLException {
            return bool(c, "SELECT RELEASE_LOCK(?)", bound, name.name());
        }

        @Override
        String nextTokenSql(String sequence) {
            return "SELECT NEXTVAL(" + sequence + ")";
        }
    }
}
