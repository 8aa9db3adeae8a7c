package dev.baton.jpa;

import dev.baton.jpa.internal.CallBound;
import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.DialectFactory;
import dev.baton.jpa.internal.SchemaScript;
import dev.baton.jpa.internal.SharedLeases;
import dev.baton.jpa.internal.schema.SchemaCheck;
import dev.baton.spi.Lease;
import dev.baton.spi.Turn;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Tries a word as the table name, the sequence name and the schema part of either, in every statement
 * the store sends (its DDL, the schema check, acquire, renew, renew in a batch, release, a fenced
 * update, and the operations of shared leases), on a real database: what the reserved-word list is checked against.
 */
final class IdentifierProbe {

    private static final String TABLE = "bt_probe_t";
    private static final String SEQUENCE = "bt_probe_s";

    private final JpaDatabase database;
    private final Connection connection;

    /**
     * @param database the database
     * @param connection a connection to a database of the probe's own (MariaDB, H2) or any (PostgreSQL:
     *     everything runs in a transaction that is rolled back)
     */
    IdentifierProbe(JpaDatabase database, Connection connection) throws SQLException {
        this.database = database;
        this.connection = connection;
        connection.setAutoCommit(database != JpaDatabase.POSTGRESQL);
    }

    /** @return the keywords the database itself lists (H2: its parser's keywords) */
    Set<String> keywords() throws SQLException {
        Set<String> words = new TreeSet<>();
        if (database == JpaDatabase.H2) {
            for (Field field : org.h2.util.ParserUtil.class.getFields()) {
                String name = field.getName();
                if (Modifier.isStatic(field.getModifiers())
                        && field.getType() == int.class
                        && org.h2.util.ParserUtil.isKeyword(name, false)) {
                    words.add(name.toLowerCase(Locale.ROOT));
                }
            }
            return words;
        }
        String sql = database == JpaDatabase.POSTGRESQL
                ? "SELECT word FROM pg_get_keywords()"
                : "SELECT WORD FROM information_schema.KEYWORDS";
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String word = rs.getString(1).toLowerCase(Locale.ROOT);
                if (word.matches("[a-z_][a-z0-9_]*")) {
                    words.add(word);
                }
            }
        }
        return words;
    }

    /**
     * @param word a plain identifier
     * @return where it breaks a statement ("table: ..." etc.), or null if it works everywhere
     */
    String failure(String word) {
        String failure = run("table " + word, word, SEQUENCE);
        if (failure == null) {
            failure = run("sequence " + word, TABLE, word);
        }
        if (failure == null) {
            failure = schemaPart(word);
        }
        return failure;
    }

    private String run(String what, String table, String sequence) {
        if (database == JpaDatabase.MARIADB) {
            return parse(what, table, sequence);
        }
        try (CallBound bound = CallBound.open(TimeUnit.MINUTES.toMillis(1))) {
            return exercise(what, table, sequence, bound);
        }
    }

    private String exercise(String what, String table, String sequence, CallBound bound) {
        Dialect dialect = DialectFactory.create(database, table, sequence);
        String owner = JpaTestOwners.owner();
        try {
            dialect.create(connection);
            dialect.validate(connection);
            check(table, sequence).run(connection);
            if (!dialect.acquire(connection, "k", owner, 60_000, null, bound).isAcquired()) {
                return what + ": not acquired";
            }
            if (!dialect.acquire(connection, "k", owner, 60_000, new Turn("w", 0, 60_000), bound)
                    .isNextInTurn()) {
                return what + ": turn not claimed";
            }
            if (!dialect.leaveTurn(connection, "k", "w", bound)) {
                return what + ": turn not left";
            }
            if (!dialect.renew(connection, "k", owner, 60_000, bound)) {
                return what + ": not renewed";
            }
            if (dialect.renewAll(connection, List.of(new Lease("k", owner)), 60_000, bound)
                            .size()
                    != 1) {
                return what + ": not renewed in a batch";
            }
            fencedUpdate(table);
            if (!dialect.release(connection, "k", owner, bound)) {
                return what + ": not released";
            }
            SharedLeases shared = new SharedLeases(dialect);
            if (!shared.acquire(connection, "s", owner, 60_000, 2, null, bound).isAcquired()) {
                return what + ": no shared lease";
            }
            if (shared.renewAll(connection, List.of(new Lease("s", owner)), 60_000, bound)
                                    .size()
                            != 1
                    || shared.inspect(connection, "s", bound).isEmpty()) {
                return what + ": shared lease not renewed or not inspected";
            }
            if (!shared.release(connection, "s", owner, bound)) {
                return what + ": shared lease not released";
            }
            return null;
        } catch (SQLException | RuntimeException e) {
            return what + ": " + e;
        } finally {
            cleanUp(table, sequence);
        }
    }

    /**
     * MariaDB, where DDL is slow and not transactional: the DDL is only prepared ({@code PREPARE} parses
     * without running), and every other statement runs on objects that do not exist. Only syntax
     * errors count.
     */
    private String parse(String what, String table, String sequence) {
        try (CallBound bound = CallBound.open(TimeUnit.MINUTES.toMillis(1))) {
            return parse(what, table, sequence, bound);
        }
    }

    private String parse(String what, String table, String sequence, CallBound bound) {
        Dialect dialect = DialectFactory.create(database, table, sequence);
        String owner = JpaTestOwners.owner();
        List<Step> steps = new java.util.ArrayList<>();
        for (String ddl : dialect.createStatements()) {
            steps.add(() -> {
                try (PreparedStatement ps = connection.prepareStatement("PREPARE bt_probe FROM ?")) {
                    ps.setString(1, ddl);
                    ps.execute();
                }
            });
        }
        steps.add(() -> dialect.validate(connection));
        steps.add(() -> check(table, sequence).run(connection));
        steps.add(() -> dialect.acquire(connection, "k", owner, 60_000, null, bound));
        steps.add(() -> dialect.acquire(connection, "k", owner, 60_000, new Turn("w", 0, 60_000), bound));
        steps.add(() -> dialect.leaveTurn(connection, "k", "w", bound));
        steps.add(() -> dialect.renew(connection, "k", owner, 60_000, bound));
        steps.add(() -> dialect.renewAll(connection, List.of(new Lease("k", owner)), 60_000, bound));
        steps.add(() -> fencedUpdate(table));
        steps.add(() -> dialect.release(connection, "k", owner, bound));
        SharedLeases shared = new SharedLeases(dialect);
        steps.add(() -> shared.acquire(connection, "s", owner, 60_000, 2, new Turn("w", 0, 60_000), bound));
        steps.add(() -> shared.renewAll(connection, List.of(new Lease("s", owner)), 60_000, bound));
        steps.add(() -> shared.inspect(connection, "s", bound));
        steps.add(() -> shared.release(connection, "s", owner, bound));
        for (Step step : steps) {
            try {
                step.run();
            } catch (SQLException e) {
                if (isSyntaxError(e)) {
                    return what + ": " + e;
                }
            } catch (dev.baton.LockConfigurationException e) {
                // the check of objects that do not exist: not about syntax
            }
        }
        return null;
    }

    private SchemaCheck check(String table, String sequence) {
        String shared = SchemaScript.sharedTableOf(table);
        return SchemaCheck.of(
                database,
                new SchemaCheck.Names(
                        table, sequence, shared, SchemaScript.createTable(database, table, sequence, shared)));
    }

    @FunctionalInterface
    private interface Step {
        void run() throws SQLException;
    }

    private void fencedUpdate(String table) throws SQLException {
        String fence = FencedWrites.of(database, table).condition("?", "?");
        try (PreparedStatement ps =
                connection.prepareStatement("UPDATE " + table + " SET owner = owner WHERE " + fence)) {
            ps.setString(1, "k");
            ps.setLong(2, 1);
            ps.executeUpdate();
        }
    }

    private String schemaPart(String word) {
        // Parse only: a statement on word.table may fail because the schema or table is missing, never
        // because of its syntax.
        List<String> probes = switch (database) {
            case POSTGRESQL ->
                List.of(
                        "SELECT lock_key FROM " + word + "." + TABLE,
                        "UPDATE " + word + "." + TABLE + " SET owner = owner",
                        "SELECT last_value FROM " + word + "." + SEQUENCE);
            case MARIADB ->
                List.of(
                        "SELECT lock_key FROM " + word + "." + TABLE,
                        "UPDATE " + word + "." + TABLE + " SET owner = owner",
                        "SELECT NEXTVAL(" + word + "." + SEQUENCE + ")");
            case H2 ->
                List.of(
                        "SELECT lock_key FROM " + word + "." + TABLE,
                        "UPDATE " + word + "." + TABLE + " SET owner = owner",
                        "SELECT NEXT VALUE FOR " + word + "." + SEQUENCE);
        };
        for (String sql : probes) {
            try (Statement st = connection.createStatement()) {
                st.execute(sql); // parsed (H2's SESSION schema even has the table)
            } catch (SQLException e) {
                if (isSyntaxError(e)) {
                    return "schema " + word + ": " + sql + ": " + e.getMessage();
                }
            } finally {
                rollback();
            }
        }
        return null;
    }

    private boolean isSyntaxError(SQLException e) {
        return switch (database) {
            case POSTGRESQL -> "42601".equals(e.getSQLState());
            case MARIADB -> e.getErrorCode() == 1064;
            case H2 -> e.getErrorCode() == 42000 || e.getErrorCode() == 42001;
        };
    }

    private void cleanUp(String table, String sequence) {
        if (database == JpaDatabase.POSTGRESQL) {
            rollback();
            return;
        }
        // the probe's own table and sequence stay for the next word (DDL is what takes the time)
        List<String> drops = table.equals(TABLE)
                ? List.of("DROP SEQUENCE IF EXISTS " + sequence)
                : List.of("DROP TABLE IF EXISTS " + table, "DROP TABLE IF EXISTS " + SchemaScript.sharedTableOf(table));
        try (Statement st = connection.createStatement()) {
            for (String drop : drops) {
                st.execute(drop);
            }
        } catch (SQLException e) {
            // a word that cannot be a name created nothing
        }
    }

    private void rollback() {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
