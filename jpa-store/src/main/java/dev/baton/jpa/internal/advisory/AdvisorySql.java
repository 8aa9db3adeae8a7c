package dev.baton.jpa.internal.advisory;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.JpaDatabase;
import dev.baton.jpa.internal.CallBound;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

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

    /**
     * The namespace of the store's locks: the table the database resolves the configured name to, as
     * {@code schema.table} in the database's own spelling, so every spelling and search path that reaches one
     * table gives one namespace (and stores on different tables stay apart, as in table mode).
     *
     * @param c a connection of the store's
     * @param table the table as configured
     * @param bound the call's bound
     * @return e.g. {@code public.baton_locks}
     * @throws SQLException if the table cannot be resolved
     */
    abstract String namespace(Connection c, String table, CallBound bound) throws SQLException;

    abstract boolean tryLock(Connection c, LockName name, CallBound bound) throws SQLException;

    abstract boolean holds(Connection c, LockName name, CallBound bound) throws SQLException;

    abstract boolean unlock(Connection c, LockName name, CallBound bound) throws SQLException;

    /** Frees every advisory lock the session holds, before it goes back to its pool. */
    abstract void unlockAll(Connection c, CallBound bound) throws SQLException;

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

    static void run(Connection c, String sql, CallBound bound) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, bound);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
        }
    }

    static boolean bool(Connection c, String sql, CallBound bound, Object parameter) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, bound)) {
            ps.setObject(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** {@code pg_try_advisory_lock(bigint)}: session locks, per database, on a 64-bit id. */
    private static final class Postgres extends AdvisorySql {

        Postgres(String sequence) {
            super(sequence);
        }

        /**
         * The relation the statements reach ({@code to_regclass} follows the search path and folds unquoted names
         * to lower case), by its schema and name. Not its OID: a dump and restore or a re-created table changes
         * the OID, and instances on either side of it would no longer exclude each other.
         */
        @Override
        String namespace(Connection c, String table, CallBound bound) throws SQLException {
            try (PreparedStatement ps = prepare(
                    c,
                    "SELECT n.nspname || '.' || r.relname FROM pg_class r"
                            + " JOIN pg_namespace n ON n.oid = r.relnamespace WHERE r.oid = to_regclass(?)",
                    bound)) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("table " + table + " is not found on the search path (to_regclass('"
                                + table + "') is null), so its locks have no namespace");
                    }
                    return rs.getString(1);
                }
            }
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
        void unlockAll(Connection c, CallBound bound) throws SQLException {
            run(c, "SELECT pg_advisory_unlock_all()", bound);
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

        /**
         * The table qualified by its database (lock names are server-wide: the database keeps stores on different
         * databases apart). MariaDB has no search path; an unqualified name is in {@code DATABASE()}. Its case:
         * with {@code lower_case_table_names} 1 or 2 the server compares table and database names in lower case
         * (one table for {@code locks} and {@code LOCKS}), so the namespace is lower case too; with 0 they are
         * case-sensitive, two tables, and the namespace keeps the case.
         */
        @Override
        String namespace(Connection c, String table, CallBound bound) throws SQLException {
            try (PreparedStatement ps = prepare(c, "SELECT DATABASE(), @@lower_case_table_names", bound);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                String qualified = table.contains(".") ? table : rs.getString(1) + "." + table;
                return rs.getInt(2) == 0 ? qualified : qualified.toLowerCase(Locale.ROOT);
            }
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
        void unlockAll(Connection c, CallBound bound) throws SQLException {
            run(c, "SELECT RELEASE_ALL_LOCKS()", bound);
        }

        @Override
        String nextTokenSql(String sequence) {
            return "SELECT NEXTVAL(" + sequence + ")";
        }
    }
}
