package dev.baton.jpa.internal.schema;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * H2 2.x, from {@code INFORMATION_SCHEMA} (unquoted names match whatever case the database folds them
 * to; the schema is the qualifier, else {@code SCHEMA()}). The rules:
 * <ul>
 * <li>the table is a base table, not a temporary one (which every session has for itself);</li>
 * <li>{@code lock_key} is {@code CHARACTER VARYING(n >= 500)} and {@code owner}
 * {@code CHARACTER VARYING(n >= 64)} ({@code VARCHAR_IGNORECASE}, made also by
 * {@code IGNORECASE=TRUE}, ignores case; {@code CHAR} pads), and the database has no collation
 * ({@code SET COLLATION}, which compares by language rules: {@code k} and {@code K} one lock at
 * primary strength); {@code token} is {@code BIGINT}; {@code expires_at} is
 * {@code TIMESTAMP(n >= 6) WITH TIME ZONE};</li>
 * <li>the primary key is exactly {@code (lock_key)}: two first acquisitions of a key would otherwise
 * both insert a row;</li>
 * <li>the table of shared leases exists, and keeps the rules of the table and of its four columns, with the
 * primary key {@code (lock_key, owner)};</li>
 * <li>the sequence has a positive increment and {@code NO CYCLE}. Its {@code CACHE} is harmless: H2
 * keeps one sequence object per database, and every session draws from it in order.</li>
 * </ul>
 */
final class H2SchemaCheck extends SchemaCheck {

    H2SchemaCheck(Names names) {
        super(names);
    }

    @Override
    JpaDatabase database() {
        return JpaDatabase.H2;
    }

    @Override
    String databaseName() {
        return "H2";
    }

    @Override
    void inspect(Connection c, Findings f) throws SQLException {
        checkTable(c, f, table);
        checkColumns(c, f, table);
        checkPrimaryKey(c, f, Name.of(table));
        checkSequence(c, f, Name.of(sequence));
        checkSharedTable(c, f);
    }

    @Override
    boolean sharedTableExists(Connection c) throws SQLException {
        try (PreparedStatement ps = named(
                        c,
                        "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE " + SCHEMA_AND_NAME.formatted("TABLE"),
                        Name.of(sharedTable));
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getLong(1) > 0;
        }
    }

    @Override
    void checkSharedTableRules(Connection c, Findings f) throws SQLException {
        checkTable(c, f, sharedTable);
        checkColumns(c, f, sharedTable);
        PrimaryKey primary = primaryKey(c, Name.of(sharedTable));
        requireSharedPrimaryKey(f, primary.columns(), primary.replacedBy(sharedTable, "lock_key, owner"));
    }

    private PreparedStatement named(Connection c, String sql, Name name) throws SQLException {
        // Unquoted identifiers are folded to upper case (or lower case in some modes); the configured
        // names are plain identifiers, so compare without case.
        PreparedStatement ps = c.prepareStatement(sql);
        ps.setString(1, name.schema());
        ps.setString(2, name.name());
        return ps;
    }

    private static final String SCHEMA_AND_NAME =
            "UPPER(%1$s_SCHEMA) = UPPER(COALESCE(?, SCHEMA()))" + " AND UPPER(%1$s_NAME) = UPPER(?)";

    private void checkTable(Connection c, Findings f, String tableName) throws SQLException {
        Name t = Name.of(tableName);
        try (PreparedStatement ps = named(
                        c,
                        "SELECT TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES WHERE " + SCHEMA_AND_NAME.formatted("TABLE"),
                        t);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("table " + tableName + " not found in INFORMATION_SCHEMA.TABLES");
            }
            if (!"BASE TABLE".equals(rs.getString(1))) {
                f.addWithoutFix("table " + tableName + " is a " + rs.getString(1)
                        + " table: every session would have locks" + " of its own; create it from the shipped DDL");
            }
        }
    }

    private record Column(String type, long length, long precision, String collation) {

        boolean collated() {
            return collation != null && !"OFF".equalsIgnoreCase(collation);
        }

        String describe() {
            String declared = type.startsWith("TIMESTAMP")
                    ? "TIMESTAMP(" + precision + ")" + type.substring(9)
                    : type + (length > 0 ? "(" + length + ")" : "");
            return declared + (collated() ? " COLLATION " + collation : "");
        }
    }

    private void checkColumns(Connection c, Findings f, String tableName) throws SQLException {
        Name t = Name.of(tableName);
        Map<String, Column> columns = new HashMap<>();
        try (PreparedStatement ps = named(
                        c,
                        "SELECT LOWER(COLUMN_NAME), DATA_TYPE, CHARACTER_MAXIMUM_LENGTH,"
                                + " DATETIME_PRECISION, COLLATION_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE "
                                + SCHEMA_AND_NAME.formatted("TABLE"),
                        t);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                columns.put(
                        rs.getString(1), new Column(rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getString(5)));
            }
        }
        for (String name : new String[] {"lock_key", "owner"}) {
            Column column = columns.get(name);
            int min = name.equals("lock_key") ? 500 : 64;
            if (column == null) {
                continue;
            }
            if (column.collated()) {
                f.addWithoutFix("column " + name + " of " + tableName + " compares by the database's collation "
                        + column.collation + " (SET COLLATION), which can make different keys one lock; use a"
                        + " database without a collation");
            } else if (!"CHARACTER VARYING".equals(column.type) || column.length < min) {
                f.add(
                        "column " + name + " of " + tableName + " is " + column.describe() + ": it must be VARCHAR("
                                + min + ") or longer (VARCHAR_IGNORECASE ignores case, CHAR pads with spaces)",
                        "ALTER TABLE " + tableName + " ALTER COLUMN " + name + " SET DATA TYPE VARCHAR(" + min + ")");
            }
        }
        if (tableName.equals(table)) {
            checkTurnColumns(f, columns); // the turns are the lock table's
        }
        Column token = columns.get("token");
        if (token != null && !"BIGINT".equals(token.type)) {
            f.add(
                    "column token of " + tableName + " is " + token.describe() + ": fencing tokens are BIGINT",
                    "ALTER TABLE " + tableName + " ALTER COLUMN token SET DATA TYPE BIGINT");
        }
        Column expiry = columns.get("expires_at");
        if (expiry != null && !("TIMESTAMP WITH TIME ZONE".equals(expiry.type) && expiry.precision >= 6)) {
            f.add(
                    "column expires_at of " + tableName + " is " + expiry.describe()
                            + ": it must be TIMESTAMP(6) WITH TIME ZONE"
                            + " (fewer fractional digits cut leases short; without time zone a session's zone moves them)",
                    "ALTER TABLE " + tableName + " ALTER COLUMN expires_at SET DATA TYPE TIMESTAMP(6) WITH TIME ZONE");
        }
    }

    private void checkTurnColumns(Findings f, Map<String, Column> columns) {
        requireTurnColumns(
                f,
                columns.keySet(),
                Map.of(
                        "turn_waiter",
                        "VARCHAR(64)",
                        "turn_since",
                        "TIMESTAMP(6) WITH TIME ZONE",
                        "turn_until",
                        "TIMESTAMP(6) WITH TIME ZONE"));
        Column waiter = columns.get("turn_waiter");
        if (waiter != null && !waiter.collated() && !("CHARACTER VARYING".equals(waiter.type) && waiter.length >= 64)) {
            f.add(
                    "column turn_waiter of " + table + " is " + waiter.describe()
                            + ": it must be VARCHAR(64) or longer," + " like owner",
                    "ALTER TABLE " + table + " ALTER COLUMN turn_waiter SET DATA TYPE VARCHAR(64)");
        }
        for (String name : new String[] {"turn_since", "turn_until"}) {
            Column time = columns.get(name);
            if (time != null && !("TIMESTAMP WITH TIME ZONE".equals(time.type) && time.precision >= 6)) {
                f.add(
                        "column " + name + " of " + table + " is " + time.describe() + ": it must be TIMESTAMP(6) WITH"
                                + " TIME ZONE, like expires_at",
                        "ALTER TABLE " + table + " ALTER COLUMN " + name
                                + " SET DATA TYPE TIMESTAMP(6) WITH TIME ZONE");
            }
        }
    }

    private void checkPrimaryKey(Connection c, Findings f, Name t) throws SQLException {
        PrimaryKey primary = primaryKey(c, t);
        if (primary.columns().equals(List.of("lock_key"))) {
            return;
        }
        f.add(
                "table " + table
                        + (primary.columns().isEmpty()
                                ? " has no primary key"
                                : " has the primary key (" + String.join(", ", primary.columns()) + ")")
                        + ": it must be exactly (lock_key), or two first acquisitions of a"
                        + " key insert two rows (two holders)",
                primary.replacedBy(table, "lock_key"));
    }

    /**
     * A table's primary key.
     *
     * @param constraint its constraint's name, or null when the table has none
     * @param columns its columns in order, lower case; empty when the table has none
     */
    private record PrimaryKey(String constraint, List<String> columns) {

        /** @return the DDL that makes {@code columns} the primary key of {@code table} instead */
        String replacedBy(String table, String columns) {
            return "ALTER TABLE " + table
                    + (constraint == null
                            ? ""
                            : " DROP CONSTRAINT \"" + constraint.replace("\"", "\"\"") + "\"; ALTER TABLE " + table)
                    + " ADD PRIMARY KEY (" + columns + ")";
        }
    }

    private PrimaryKey primaryKey(Connection c, Name t) throws SQLException {
        List<String> primary = new ArrayList<>();
        String constraint = null;
        try (PreparedStatement ps = named(
                        c,
                        "SELECT k.CONSTRAINT_NAME, LOWER(k.COLUMN_NAME)"
                                + " FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k"
                                + " ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME"
                                + " WHERE tc.CONSTRAINT_TYPE = 'PRIMARY KEY' AND "
                                + SCHEMA_AND_NAME.formatted("tc.TABLE")
                                + " ORDER BY k.ORDINAL_POSITION",
                        t);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                constraint = rs.getString(1);
                primary.add(rs.getString(2));
            }
        }
        return new PrimaryKey(constraint, primary);
    }

    private void checkSequence(Connection c, Findings f, Name s) throws SQLException {
        long increment;
        boolean cycle;
        try (PreparedStatement ps = named(
                        c,
                        "SELECT INCREMENT, CYCLE_OPTION FROM INFORMATION_SCHEMA.SEQUENCES WHERE "
                                + SCHEMA_AND_NAME.formatted("SEQUENCE"),
                        s);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("sequence " + sequence + " not found in INFORMATION_SCHEMA.SEQUENCES");
            }
            increment = rs.getLong(1);
            cycle = "YES".equals(rs.getString(2));
        }
        String restart = "RESTART WITH (SELECT GREATEST(COALESCE(MAX(token), 0) + 1, 1) FROM " + table + ")";
        if (increment <= 0) {
            // CACHE: a descending sequence keeps a cache size the new options reject; 32 is H2's default
            f.add(
                    "sequence " + sequence + " has INCREMENT BY " + increment
                            + ": tokens must grow with every acquisition",
                    "ALTER SEQUENCE " + sequence
                            + " INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 32 "
                            + restart);
        }
        if (cycle) {
            f.add(
                    "sequence " + sequence
                            + " is CYCLE: at its maximum it starts again from its minimum, so tokens go back",
                    "ALTER SEQUENCE " + sequence + " NO CYCLE" + (increment > 0 ? " " + restart : ""));
        }
    }
}
