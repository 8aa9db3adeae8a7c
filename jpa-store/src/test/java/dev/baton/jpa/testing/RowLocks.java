package dev.baton.jpa.testing;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Row locks held by a transaction of the test (outside any JPA provider), and a way to see that a
 * statement of another session is waiting for one: what the interleaving tests force their order with.
 */
public final class RowLocks {

    private RowLocks() {}

    /** A plain JDBC transaction that holds row locks until it is committed or closed. */
    public static final class Holder implements AutoCloseable {

        private final Connection connection;

        private Holder(Connection connection) {
            this.connection = connection;
        }

        /**
         * Locks the rows a query selects ({@code ... FOR UPDATE}), in this holder's open transaction.
         *
         * @param sql a {@code SELECT ... FOR UPDATE} with {@code ?} parameters
         * @param parameters the values
         * @return how many rows it locked
         */
        public int lock(String sql, Object... parameters) {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    ps.setObject(i + 1, parameters[i]);
                }
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                    }
                }
                return rows;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        /**
         * Runs an update in this holder's open transaction (its row locks are kept until {@link #release}).
         *
         * @param sql the statement with {@code ?} parameters
         * @param parameters the values
         * @return the update count
         */
        public int update(String sql, Object... parameters) {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    ps.setObject(i + 1, parameters[i]);
                }
                return ps.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Commits: the locks are released. */
        public void release() {
            try {
                connection.commit();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            try {
                if (!connection.isClosed()) {
                    connection.rollback();
                    connection.close();
                }
            } catch (SQLException e) {
                // the test is over
            }
        }
    }

    /**
     * Opens a transaction of its own on the test database.
     *
     * @param database which
     * @return the holder; close it
     */
    public static Holder holder(JpaDatabase database) {
        Connection c = TestDatabases.connect(database);
        try {
            c.setAutoCommit(false);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return new Holder(c);
    }

    /**
     * Waits until a statement that mentions {@code fragment} (e.g. a table name) waits for a lock.
     *
     * @param database which
     * @param fragment a piece of the waiting statement's text, matched without regard to case
     * @param atMost how long to wait
     * @throws AssertionError if no such statement waited in time
     */
    public static void awaitWaiting(JpaDatabase database, String fragment, Duration atMost) {
        awaitWaiting(database, fragment, atMost, () -> true);
    }

    /**
     * As {@link #awaitWaiting(JpaDatabase, String, Duration)}, giving up early when {@code stillRunning}
     * turns false (the statement finished without waiting).
     *
     * @param database which
     * @param fragment a piece of the waiting statement's text
     * @param atMost how long to wait
     * @param stillRunning whether the statement may still come to wait
     * @return whether it was seen waiting
     */
    public static boolean awaitWaiting(
            JpaDatabase database, String fragment, Duration atMost, BooleanSupplier stillRunning) {
        String sql = switch (database) {
            case POSTGRESQL ->
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'" + " AND lower(query) LIKE ?";
            // INNODB_TRX does not always list a waiting statement (seen with MariaDB 11.4): a statement of
            // these tests that has run for 300 ms waits for a lock too.
            case MARIADB ->
                "SELECT (SELECT count(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'"
                        + " AND lower(trx_query) LIKE ?) + (SELECT count(*) FROM information_schema.PROCESSLIST"
                        + " WHERE COMMAND = 'Query' AND TIME_MS >= 300 AND lower(INFO) LIKE ?"
                        + " AND lower(INFO) NOT LIKE '%information_schema%')";
            case H2 ->
                "SELECT count(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL"
                        + " AND lower(EXECUTING_STATEMENT) LIKE ?";
        };
        long deadline = System.nanoTime() + atMost.toNanos();
        try (Connection c = TestDatabases.connect(database);
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 1; i <= sql.chars().filter(ch -> ch == '?').count(); i++) {
                ps.setString(i, "%" + fragment.toLowerCase(Locale.ROOT) + "%");
            }
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return true;
                    }
                }
                if (!stillRunning.getAsBoolean()) {
                    return false;
                }
                Thread.sleep(20);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        throw new AssertionError("no statement on " + database + " mentioning '" + fragment
                + "' waited for a lock within " + atMost.toMillis() + " ms; the sessions: " + sessions(database));
    }

    private static String sessions(JpaDatabase database) {
        String sql = switch (database) {
            case POSTGRESQL -> "SELECT state, wait_event_type, wait_event, query FROM pg_stat_activity";
            case MARIADB -> "SELECT COMMAND, STATE, TIME_MS, INFO FROM information_schema.PROCESSLIST";
            case H2 -> "SELECT SESSION_STATE, BLOCKER_ID, EXECUTING_STATEMENT FROM INFORMATION_SCHEMA.SESSIONS";
        };
        StringBuilder out = new StringBuilder();
        try (Connection c = TestDatabases.connect(database);
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                out.append("\n  ");
                for (int i = 1; i <= columns; i++) {
                    out.append(i == 1 ? "" : " | ").append(rs.getString(i));
                }
            }
        } catch (SQLException e) {
            out.append(e);
        }
        return out.toString();
    }
}
