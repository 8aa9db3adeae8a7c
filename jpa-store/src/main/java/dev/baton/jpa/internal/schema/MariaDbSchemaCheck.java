package dev.baton.jpa.internal.schema;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MariaDB, from {@code information_schema} (the schema is the qualifier of the name, else
 * {@code DATABASE()}). The rules:
 * <ul>
 * <li>the table is an InnoDB base table (MEMORY loses every lock at a restart; MyISAM and Aria have
 * no row locks and no transactions);</li>
 * <li>{@code lock_key} compares bytes with NO PAD: {@code VARCHAR(n >= 500) CHARACTER SET utf8mb4
 * COLLATE utf8mb4_nopad_bin}, or {@code VARBINARY(n >= 2000)}. {@code utf8mb4_bin} is PAD SPACE
 * ({@code a} and {@code a } are one lock), {@code *_ci} ignores case, other character sets cannot
 * hold every key;</li>
 * <li>{@code owner} is {@code VARCHAR(n >= 64)} with a {@code _bin} collation, or
 * {@code VARBINARY(n >= 64)}; {@code token} is {@code BIGINT}; {@code expires_at} is
 * {@code DATETIME(6)} ({@code DATETIME} without fraction cuts a 300 ms lease to one that has often
 * ended when it is written: two holders; {@code TIMESTAMP} converts by the session's time zone and
 * cannot hold the release's 1970 expiry);</li>
 * <li>the primary key is exactly {@code (lock_key)}, on the whole column (a prefix would make keys
 * with the same first characters one row), and it is the only unique index:
 * {@code INSERT ... ON DUPLICATE KEY UPDATE} fires on any unique index, and would update another
 * key's row;</li>
 * <li>the table of shared leases exists, and keeps the rules of the table and of its four columns, with the
 * primary key {@code (lock_key, owner)} on whole columns;</li>
 * <li>the sequence has a positive increment and {@code NOCYCLE}. {@code INCREMENT BY 0} takes its
 * step from {@code auto_increment_increment}/{@code auto_increment_offset}, which Galera and
 * multi-primary setups give each server its own, so each hands out its own interleaved values and
 * tokens of one key go back when instances use different servers.</li>
 * </ul>
 * A sequence's {@code CACHE} is accepted: unlike PostgreSQL, MariaDB keeps one cache per sequence
 * in the server, shared by every connection, so values are handed out in order (the tests take
 * turns from two instances on a {@code CACHE 50} sequence), and after a restart the sequence
 * continues above the cached block.
 */
final class MariaDbSchemaCheck extends SchemaCheck {

    MariaDbSchemaCheck(Names names) {
        super(names);
    }

    @Override
    JpaDatabase database() {
        return JpaDatabase.MARIADB;
    }

    @Override
    String databaseName() {
        return "MariaDB";
    }

    @Override
    void inspect(Connection c, Findings f) throws SQLException {
        checkTable(c, f, table);
        checkColumns(c, f, table);
        checkKeys(c, f, Name.of(table));
        checkSequence(c, f);
        checkSharedTable(c, f);
    }

    @Override
    boolean sharedTableExists(Connection c) throws SQLException {
        try (PreparedStatement ps = inSchema(
                        c,
                        "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = $schema AND TABLE_NAME = ?",
                        Name.of(sharedTable));
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getLong(1) > 0;
        }
    }

    @Override
    void checkSharedTableRules(Connection c, Findings f) throws SQLException {
        checkTable(c, f, sharedTable);
        checkColumns(c, f, sharedTable);
        List<String> primary = uniqueIndexes(c, Name.of(sharedTable)).get("PRIMARY");
        requireSharedPrimaryKey(
                f,
                primary == null ? List.of() : primary,
                "ALTER TABLE " + sharedTable + (primary == null ? "" : " DROP PRIMARY KEY,")
                        + " ADD PRIMARY KEY (lock_key, owner)");
    }

    private PreparedStatement inSchema(Connection c, String sql, Name name) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql.replace("$schema", name.schema() == null ? "DATABASE()" : "?"));
        int i = 1;
        if (name.schema() != null) {
            ps.setString(i++, name.schema());
        }
        ps.setString(i, name.name());
        return ps;
    }

    private void checkTable(Connection c, Findings f, String name) throws SQLException {
        Name t = Name.of(name);
        try (PreparedStatement ps = inSchema(
                        c,
                        "SELECT TABLE_TYPE, ENGINE FROM information_schema.TABLES"
                                + " WHERE TABLE_SCHEMA = $schema AND TABLE_NAME = ?",
                        t);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                f.addWithoutFix("table " + name + " is not a table of its schema in information_schema.TABLES (a"
                        + " TEMPORARY table has locks of its own per connection); create it from the shipped DDL");
                return;
            }
            if (!"BASE TABLE".equalsIgnoreCase(rs.getString(1))) {
                f.addWithoutFix("table " + name + " is a " + rs.getString(1) + ", not a table; create it from the"
                        + " shipped DDL");
            } else if (!"InnoDB".equalsIgnoreCase(rs.getString(2))) {
                f.add(
                        "table " + name + " has ENGINE " + rs.getString(2)
                                + ": it must be InnoDB (MEMORY forgets every"
                                + " lock at a restart while holders still run; others have no row locks or transactions)",
                        "ALTER TABLE " + name + " ENGINE = InnoDB");
            }
        }
    }

    private record Column(
            String type, String dataType, long length, String charset, String collation, long precision) {}

    private void checkColumns(Connection c, Findings f, String name) throws SQLException {
        Name t = Name.of(name);
        Map<String, Column> columns = new HashMap<>();
        try (PreparedStatement ps = inSchema(
                        c,
                        "SELECT LOWER(COLUMN_NAME), COLUMN_TYPE, LOWER(DATA_TYPE),"
                                + " CHARACTER_MAXIMUM_LENGTH, CHARACTER_SET_NAME, COLLATION_NAME, DATETIME_PRECISION"
                                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = $schema AND TABLE_NAME = ?",
                        t);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                columns.put(
                        rs.getString(1),
                        new Column(
                                rs.getString(2),
                                rs.getString(3),
                                rs.getLong(4),
                                lower(rs.getString(5)),
                                lower(rs.getString(6)),
                                rs.getLong(7)));
            }
        }
        Column key = columns.get("lock_key");
        if (key != null) {
            boolean text = "varchar".equals(key.dataType)
                    && key.length >= 500
                    && "utf8mb4".equals(key.charset)
                    && key.collation != null
                    && key.collation.endsWith("_nopad_bin");
            boolean binary = "varbinary".equals(key.dataType) && key.length >= 2000;
            if (!text && !binary) {
                String why = key.collation == null
                        ? ""
                        : key.collation.endsWith("_ci")
                                ? ", which ignores case ('k' and 'K' would be one lock)"
                                : key.collation.endsWith("_bin") && !key.collation.contains("nopad")
                                        ? ", which is PAD SPACE ('a' and 'a ' would be one lock)"
                                        : "";
                f.add(
                        "column lock_key of " + name + " is " + key.type
                                + (key.charset == null ? "" : " CHARACTER SET " + key.charset)
                                + (key.collation == null ? "" : " COLLATE " + key.collation) + why
                                + ": keys must be compared"
                                + " byte for byte with NO PAD and hold any Unicode text of 500 characters",
                        "ALTER TABLE " + name + " MODIFY lock_key VARCHAR(500) CHARACTER SET utf8mb4 COLLATE"
                                + " utf8mb4_nopad_bin NOT NULL");
            }
        }
        Column owner = columns.get("owner");
        if (owner != null) {
            boolean text = "varchar".equals(owner.dataType)
                    && owner.length >= 64
                    && owner.collation != null
                    && owner.collation.endsWith("_bin");
            boolean binary = "varbinary".equals(owner.dataType) && owner.length >= 64;
            if (!text && !binary) {
                f.add(
                        "column owner of " + name + " is " + owner.type
                                + (owner.collation == null ? "" : " COLLATE " + owner.collation)
                                + ": it must be VARCHAR(64) or"
                                + " longer with a _bin collation (an owner must never match another owner's lock)",
                        "ALTER TABLE " + name
                                + " MODIFY owner VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL");
            }
        }
        if (name.equals(table)) {
            checkTurnColumns(f, columns); // the turns are the lock table's
        }
        Column token = columns.get("token");
        if (token != null && !"bigint".equals(token.dataType)) {
            f.add(
                    "column token of " + name + " is " + token.type + ": fencing tokens are BIGINT",
                    "ALTER TABLE " + name + " MODIFY token BIGINT NOT NULL");
        }
        Column expiry = columns.get("expires_at");
        if (expiry != null && !("datetime".equals(expiry.dataType) && expiry.precision == 6)) {
            boolean timestamp = "timestamp".equals(expiry.dataType);
            f.add(
                    "column expires_at of " + name + " is " + expiry.type + ": it must be DATETIME(6) ("
                            + (timestamp
                                    ? "TIMESTAMP converts by the session's time zone and cannot hold the 1970 expiry of a"
                                            + " released lock"
                                    : "without microseconds a lease is cut short and can end before it is"
                                            + " written, so a second owner takes the key at once: two holders")
                            + ")",
                    // the expiries are UTC: convert a TIMESTAMP column under UTC, not the session's zone
                    (timestamp ? "SET time_zone = '+00:00'; " : "") + "ALTER TABLE " + name
                            + " MODIFY expires_at DATETIME(6) NOT NULL");
        }
    }

    private void checkTurnColumns(Findings f, Map<String, Column> columns) {
        requireTurnColumns(
                f,
                columns.keySet(),
                Map.of(
                        "turn_waiter",
                        "VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL",
                        "turn_since",
                        "DATETIME(6) NULL",
                        "turn_until",
                        "DATETIME(6) NULL"));
        Column waiter = columns.get("turn_waiter");
        if (waiter != null
                && !("varchar".equals(waiter.dataType)
                                && waiter.length >= 64
                                && waiter.collation != null
                                && waiter.collation.endsWith("_bin")
                        || "varbinary".equals(waiter.dataType) && waiter.length >= 64)) {
            f.add(
                    "column turn_waiter of " + table + " is " + waiter.type
                            + (waiter.collation == null ? "" : " COLLATE " + waiter.collation)
                            + ": it must be VARCHAR(64) or"
                            + " longer with a _bin collation, like owner (a waiter must never match another waiter's turn)",
                    "ALTER TABLE " + table
                            + " MODIFY turn_waiter VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL");
        }
        for (String name : new String[] {"turn_since", "turn_until"}) {
            Column time = columns.get(name);
            if (time != null && !("datetime".equals(time.dataType) && time.precision == 6)) {
                f.add(
                        "column " + name + " of " + table + " is " + time.type + ": it must be DATETIME(6), like"
                                + " expires_at",
                        ("timestamp".equals(time.dataType) ? "SET time_zone = '+00:00'; " : "") + "ALTER TABLE " + table
                                + " MODIFY " + name + " DATETIME(6) NULL");
            }
        }
    }

    private void checkKeys(Connection c, Findings f, Name t) throws SQLException {
        Map<String, List<String>> unique = uniqueIndexes(c, t);
        List<String> primary = unique.remove("PRIMARY");
        if (primary == null) {
            f.add(
                    "table " + table + " has no primary key: without it INSERT ... ON DUPLICATE KEY UPDATE never meets"
                            + " the key's row and a second owner inserts a second row for the same key (two holders)",
                    "ALTER TABLE " + table + " ADD PRIMARY KEY (lock_key)");
        } else if (!primary.equals(List.of("lock_key"))) {
            boolean prefix = primary.size() == 1 && primary.get(0).startsWith("lock_key(");
            f.add(
                    "the primary key of " + table + " is (" + String.join(", ", primary) + ")"
                            + (prefix ? ", a prefix of lock_key: keys that begin alike would share one row" : "")
                            + ": it must be exactly (lock_key), one row per key",
                    "ALTER TABLE " + table + " DROP PRIMARY KEY, ADD PRIMARY KEY (lock_key)");
        }
        for (Map.Entry<String, List<String>> index : unique.entrySet()) {
            f.add(
                    "table " + table + " has the unique index " + index.getKey() + " ("
                            + String.join(", ", index.getValue())
                            + "): INSERT ... ON DUPLICATE KEY UPDATE fires on every unique index and would update another"
                            + " key's row",
                    "ALTER TABLE " + table + " DROP INDEX `" + index.getKey().replace("`", "``") + "`");
        }
    }

    /** @return the table's unique indexes by name ({@code PRIMARY}: the primary key), each column with its prefix */
    private Map<String, List<String>> uniqueIndexes(Connection c, Name t) throws SQLException {
        Map<String, List<String>> unique = new LinkedHashMap<>();
        try (PreparedStatement ps = inSchema(
                        c,
                        "SELECT INDEX_NAME, LOWER(COLUMN_NAME), SUB_PART"
                                + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = $schema AND TABLE_NAME = ? AND NON_UNIQUE = 0"
                                + " ORDER BY INDEX_NAME, SEQ_IN_INDEX",
                        t);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String sub = rs.getString(3);
                unique.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(rs.getString(2) + (sub == null ? "" : "(" + sub + ")"));
            }
        }
        return unique;
    }

    private void checkSequence(Connection c, Findings f) throws SQLException {
        Name s = Name.of(sequence);
        try (PreparedStatement ps = inSchema(
                        c,
                        "SELECT TABLE_TYPE FROM information_schema.TABLES"
                                + " WHERE TABLE_SCHEMA = $schema AND TABLE_NAME = ?",
                        s);
                ResultSet rs = ps.executeQuery()) {
            if (rs.next() && !"SEQUENCE".equalsIgnoreCase(rs.getString(1))) {
                f.addWithoutFix(sequence + " is a " + rs.getString(1) + ", not a sequence; create the sequence from the"
                        + " shipped DDL");
                return;
            }
        }
        long increment;
        boolean cycle;
        long next;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + sequence)) {
            if (!rs.next()) {
                throw new SQLException("sequence " + sequence + " has no row");
            }
            increment = rs.getLong("increment");
            cycle = rs.getLong("cycle_option") != 0;
            next = rs.getLong("next_not_cached_value");
        }
        if (increment <= 0 || cycle) {
            long restart = Math.max(highestToken(c) + 1, next);
            if (increment <= 0) {
                f.add(
                        "sequence " + sequence + " has INCREMENT BY " + increment
                                + (increment == 0
                                        ? " (the step of"
                                                + " auto_increment_increment: in Galera or multi-primary setups each server hands out its own"
                                                + " interleaved values, so tokens of one key go back)"
                                        : "")
                                + ": tokens must grow with every"
                                + " acquisition",
                        "ALTER SEQUENCE " + sequence + " INCREMENT BY 1 MINVALUE 1 MAXVALUE"
                                + " 9223372036854775806 START WITH 1 RESTART WITH " + restart);
            }
            if (cycle) {
                f.add(
                        "sequence " + sequence
                                + " is CYCLE: at its maximum it starts again from its minimum, so tokens go" + " back",
                        "ALTER SEQUENCE " + sequence + " NOCYCLE"
                                + (increment > 0 ? "; ALTER SEQUENCE " + sequence + " RESTART WITH " + restart : ""));
            }
        }
    }

    /** The highest token in the table now: a sequence that went back must continue above it (SETVAL takes constants). */
    private long highestToken(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(token), 0) FROM " + table)) {
            rs.next();
            return Math.max(rs.getLong(1), 0);
        }
    }
}
