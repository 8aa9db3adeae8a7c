package dev.baton.jpa.internal.schema;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks, once per store at its first connection (under every schema action), that the lock table and
 * the token sequence keep the two promises the store's statements rest on, and refuses to run
 * otherwise:
 * <ul>
 * <li><b>mutual exclusion</b>: one row per key, found by exact comparison of the key (a primary key
 * on {@code lock_key} whose collation compares bytes: {@code k}, {@code K} and {@code k } are three
 * locks), and an expiry that keeps every fraction of the lease (microseconds, time zone-safe), in a
 * table that survives a crash of the database;</li>
 * <li><b>fencing</b>: a sequence that hands out growing values to every connection, in the order they
 * are drawn, and never returns to a smaller one (no per-session cache, a positive increment, no
 * cycle), into a {@code BIGINT} column.</li>
 * </ul>
 * The table of shared leases (named after the lock table, see {@code SchemaScript.sharedTableOf}) is held to the same rules as the lock table, with the
 * primary key {@code (lock_key, owner)} instead; a schema made before shared leases existed lacks it, and is
 * refused with the {@code CREATE TABLE} that adds it (which {@code schema-action=create} and the shipped Flyway and
 * Liquibase scripts run too).
 * Every problem found is reported in one {@link LockConfigurationException}: what is wrong, why it
 * matters, and the DDL that fixes it ({@code Fix: ...}, one line per problem). The table and sequence
 * must exist; the caller runs the store's own probes first, so a missing object fails there with the
 * database's error.
 *
 * <p>What the shipped DDL ({@code META-INF/baton/sql/<database>/create.sql}) creates passes. The
 * rules per database are in the javadoc of each implementation.
 */
public abstract class SchemaCheck {

    /** The table as configured: a plain identifier, optionally schema-qualified. */
    protected final String table;

    /** The sequence as configured. */
    protected final String sequence;

    /** The table of shared leases, named after {@link #table}. */
    protected final String sharedTable;

    /** The {@code CREATE TABLE} of {@link #sharedTable} from the shipped DDL, on one line. */
    private final String createSharedTable;

    SchemaCheck(Names names) {
        this.table = names.table();
        this.sequence = names.sequence();
        this.sharedTable = names.sharedTable();
        this.createSharedTable = names.createSharedTable();
    }

    /**
     * What a check looks for, as configured and derived.
     *
     * @param table the lock table as configured (a valid identifier)
     * @param sequence the sequence as configured (a valid identifier)
     * @param sharedTable the table of shared leases, named after the lock table
     * @param createSharedTable the shipped DDL's {@code CREATE TABLE} of {@code sharedTable}, on one line: the fix of
     *     a schema that lacks it
     */
    public record Names(String table, String sequence, String sharedTable, String createSharedTable) {}

    /**
     * The check of a database.
     *
     * @param database the database
     * @param names the names of what it checks
     * @return the check
     */
    public static SchemaCheck of(JpaDatabase database, Names names) {
        return switch (database) {
            case POSTGRESQL -> new PostgresSchemaCheck(names);
            case MARIADB -> new MariaDbSchemaCheck(names);
            case H2 -> new H2SchemaCheck(names);
        };
    }

    /**
     * Runs the check on the connection of a transaction of the store's own; reads the catalog only.
     *
     * @param connection the connection
     * @throws LockConfigurationException naming every problem and its fix
     * @throws SQLException if the catalog could not be read
     */
    public final void run(Connection connection) throws SQLException {
        Findings findings = new Findings();
        inspect(connection, findings);
        if (!findings.problems.isEmpty()) {
            throw new LockConfigurationException(message(findings.problems));
        }
    }

    /**
     * Looks at the table and the sequence.
     *
     * @param c the connection
     * @param findings where to report problems
     * @throws SQLException if the catalog could not be read
     */
    abstract void inspect(Connection c, Findings findings) throws SQLException;

    /** @return the database */
    abstract JpaDatabase database();

    /** @return the database's name for people */
    abstract String databaseName();

    private String message(List<String> problems) {
        StringBuilder m = new StringBuilder("The JPA lock store refuses to run on table ")
                .append(table)
                .append(" and sequence ")
                .append(sequence)
                .append(" (")
                .append(databaseName())
                .append("): ")
                .append(problems.size() == 1 ? "this breaks" : "these break")
                .append(" what its locks and fencing tokens rest on.");
        for (String problem : problems) {
            m.append("\n - ").append(problem);
        }
        m.append("\nThe shipped DDL (META-INF/baton/sql/")
                .append(database().folder())
                .append("/create.sql) has none of these problems. The store checks again at its next operation.");
        return m.toString();
    }

    /** The columns of a key's next turn ({@code WAITING_TURNS}), in the order the shipped DDL has them. */
    static final List<String> TURN_COLUMNS = List.of("turn_waiter", "turn_since", "turn_until");

    /**
     * Reports the turn columns a table lacks (a table created before turns existed), with the
     * {@code ALTER TABLE ... ADD COLUMN} statements that add them to an existing installation.
     *
     * @param f where to report
     * @param present the names of the table's columns, lower case
     * @param definitions the column definition of each turn column on this database
     */
    void requireTurnColumns(Findings f, Set<String> present, Map<String, String> definitions) {
        List<String> missing =
                TURN_COLUMNS.stream().filter(c -> !present.contains(c)).toList();
        if (missing.isEmpty()) {
            return;
        }
        List<String> fix = new ArrayList<>();
        for (String column : missing) {
            fix.add("ALTER TABLE " + table + " ADD COLUMN " + column + " " + definitions.get(column));
        }
        f.add(
                "table " + table + " has no column" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                        + ": every acquisition reads and writes the key's next turn there (the waiter that has waited"
                        + " longest takes a contended key next); a table created before turns existed lacks them",
                String.join("; ", fix));
    }

    /** The primary key of the table of shared leases. */
    static final List<String> SHARED_PRIMARY_KEY = List.of("lock_key", "owner");

    /**
     * Reports a missing table of shared leases (a schema made before shared leases existed), with its
     * {@code CREATE TABLE} from the shipped DDL.
     *
     * @param f where to report
     */
    void reportMissingSharedTable(Findings f) {
        f.add(
                "table " + sharedTable + " does not exist: the store keeps the shared leases of keys (permits and read"
                        + " locks) there, one row each, and a schema made before shared leases existed lacks it. Create"
                        + " it (instances of earlier versions keep running beside it): schema-action=create does at the"
                        + " next start, as do the Flyway script V2__baton_shared_leases.sql and the Liquibase changeset"
                        + " baton-locks-2-" + database().folder() + " shipped in the jar, or the statement below",
                createSharedTable);
    }

    /**
     * Checks the table of shared leases: reports it missing ({@link #reportMissingSharedTable}), or checks it like
     * the lock table, with its own primary key.
     *
     * @param c the connection
     * @param f where to report
     * @throws SQLException if the catalog could not be read
     */
    final void checkSharedTable(Connection c, Findings f) throws SQLException {
        if (sharedTableExists(c)) {
            checkSharedTableRules(c, f);
        } else {
            reportMissingSharedTable(f);
        }
    }

    /**
     * @param c the connection
     * @return whether the table of shared leases exists
     * @throws SQLException if the catalog could not be read
     */
    abstract boolean sharedTableExists(Connection c) throws SQLException;

    /**
     * Checks the existing table of shared leases as the lock table is checked, and its primary key
     * ({@link #requireSharedPrimaryKey}).
     *
     * @param c the connection
     * @param f where to report
     * @throws SQLException if the catalog could not be read
     */
    abstract void checkSharedTableRules(Connection c, Findings f) throws SQLException;

    /**
     * Reports a primary key of the table of shared leases other than {@code (lock_key, owner)}.
     *
     * @param f where to report
     * @param primary its primary key's columns, in order, lower case; empty if it has none
     * @param fix the statements that give it the right one
     */
    void requireSharedPrimaryKey(Findings f, List<String> primary, String fix) {
        if (!primary.equals(SHARED_PRIMARY_KEY)) {
            f.add(
                    "table " + sharedTable
                            + (primary.isEmpty()
                                    ? " has no primary key"
                                    : " has the primary key (" + String.join(", ", primary) + ")")
                            + ": it must be exactly (lock_key, owner), one lease per key and owner, found by key",
                    fix);
        }
    }

    /** Problems found, each a sentence or two, ending with its fix. */
    static final class Findings {

        private final List<String> problems = new ArrayList<>();

        /**
         * A problem that DDL fixes.
         *
         * @param what what is wrong and what it breaks
         * @param fix the statements that fix it, separated by {@code ;}
         */
        void add(String what, String fix) {
            problems.add(what + (what.endsWith(".") ? "" : ".") + " Fix: " + fix);
        }

        /**
         * A problem without a one-line fix.
         *
         * @param what what is wrong, what it breaks and what to do
         */
        void addWithoutFix(String what) {
            problems.add(what);
        }

        boolean isEmpty() {
            return problems.isEmpty();
        }
    }

    /**
     * A configured name split into its schema (null when unqualified) and its own name.
     *
     * @param schema the schema part, or null
     * @param name the name
     */
    record Name(String schema, String name) {

        static Name of(String qualified) {
            int dot = qualified.indexOf('.');
            return dot < 0
                    ? new Name(null, qualified)
                    : new Name(qualified.substring(0, dot), qualified.substring(dot + 1));
        }
    }

    static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
