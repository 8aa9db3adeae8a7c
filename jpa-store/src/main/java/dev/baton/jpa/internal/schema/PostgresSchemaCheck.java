package dev.baton.jpa.internal.schema;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL. The names are resolved as the statements resolve them ({@code search_path}), through
 * {@code regclass}. The rules:
 * <ul>
 * <li>the table is an ordinary (or partitioned) table, not {@code UNLOGGED} (emptied by a crash: every
 * lock free again while its holders still run) and not temporary (one per session);</li>
 * <li>the sequence is not {@code UNLOGGED} (reset by a crash: tokens go back), has {@code CACHE 1}
 * (PostgreSQL caches per session: two sessions hand out 1, 51, 2, 52, ... and a stale holder's
 * token passes a fence check), a positive increment and {@code NO CYCLE};</li>
 * <li>{@code lock_key} is {@code varchar(n >= 500)} or {@code text} ({@code char(n)} pads,
 * {@code citext} ignores case) with a <em>byte-wise</em> collation (below); {@code owner} is
 * {@code varchar(n >= 64)} or {@code text} with a deterministic collation; {@code token} is
 * {@code bigint}; {@code expires_at} is {@code timestamp with time zone} with 6 fractional digits
 * (without time zone, a session's {@code TimeZone} would move every lease; with fewer digits a lease
 * is rounded, possibly to an end before the statement's own clock);</li>
 * <li>the primary key is exactly {@code (lock_key)}, and no other unique index on {@code (lock_key)}
 * (which {@code ON CONFLICT (lock_key)} would also take as its arbiter) has a collation that is not
 * byte-wise;</li>
 * <li>the table of shared leases exists, and keeps the rules of the table and of its four columns, with the
 * primary key {@code (lock_key, owner)}.</li>
 * </ul>
 *
 * <p><b>Which collations are safe for the key.</b> A <em>non-deterministic</em> collation (ICU,
 * {@code deterministic = false}) makes strings equal that are not the same bytes: {@code k} and
 * {@code K} are one lock. A deterministic collation compares equal only identical bytes, so equality
 * is exact; but a <em>linguistic</em> one (libc {@code en_US.UTF-8}, any ICU collation) orders strings
 * by rules of the C library or ICU, which change between their versions: after an operating-system
 * upgrade the primary key index can be out of order, PostgreSQL no longer finds the row of a key in
 * it, and {@code INSERT ... ON CONFLICT} inserts a second row for the same key: two holders. The
 * store accepts only collations whose order is the byte (code point) order and cannot change: libc
 * {@code C} and {@code POSIX} (what {@code COLLATE "C"} in the shipped DDL gives), libc
 * {@code C.UTF-8} / {@code C.utf8} (code point order, which in UTF-8 is byte order), and the builtin
 * provider of PostgreSQL 17+ ({@code C}, {@code C.UTF-8}). A column without {@code COLLATE} uses the
 * database's default, which is judged by the same rule ({@code datcollate} and its provider).
 */
final class PostgresSchemaCheck extends SchemaCheck {

    private static final Set<String> BYTEWISE_LIBC = Set.of("c", "posix", "c.utf-8", "c.utf8");

    PostgresSchemaCheck(Names names) {
        super(names);
    }

    @Override
    JpaDatabase database() {
        return JpaDatabase.POSTGRESQL;
    }

    @Override
    String databaseName() {
        return "PostgreSQL";
    }

    @Override
    void inspect(Connection c, Findings f) throws SQLException {
        int major = c.getMetaData().getDatabaseMajorVersion();
        checkTable(c, f, table);
        checkSequence(c, f, major);
        Map<String, Column> columns = columns(c, major, table);
        Collation databaseDefault = databaseDefault(c, major);
        checkColumns(f, columns, databaseDefault, table);
        checkTurnColumns(f, columns, databaseDefault);
        Column key = columns.get("lock_key");
        if (key != null) {
            checkKeys(c, f, key.attnum, databaseDefault, major);
        }
        checkSharedTable(c, f);
    }

    @Override
    boolean sharedTableExists(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, sharedTable);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    void checkSharedTableRules(Connection c, Findings f) throws SQLException {
        int major = c.getMetaData().getDatabaseMajorVersion();
        Collation databaseDefault = databaseDefault(c, major);
        checkTable(c, f, sharedTable);
        Map<String, Column> columns = columns(c, major, sharedTable);
        checkColumns(f, columns, databaseDefault, sharedTable);
        Map<Integer, String> names = new HashMap<>();
        columns.values().forEach(column -> names.put(column.attnum, column.name));
        List<String> primary = new ArrayList<>();
        String constraint = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT CAST(i.indkey AS TEXT),"
                + " (SELECT quote_ident(conname) FROM pg_constraint WHERE conindid = i.indexrelid AND contype = 'p')"
                + " FROM pg_index i WHERE i.indrelid = CAST(? AS regclass) AND i.indisprimary")) {
            ps.setString(1, sharedTable);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    for (String attnum : rs.getString(1).strip().split("\\s+")) {
                        primary.add(names.getOrDefault(Integer.valueOf(attnum), "column " + attnum));
                    }
                    constraint = rs.getString(2);
                }
            }
        }
        requireSharedPrimaryKey(
                f,
                primary,
                "ALTER TABLE " + sharedTable + (constraint == null ? "" : " DROP CONSTRAINT " + constraint + ",")
                        + " ADD PRIMARY KEY (lock_key, owner)");
    }

    private void checkTable(Connection c, Findings f, String t) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT relkind, relpersistence FROM pg_class WHERE oid = CAST(? AS regclass)")) {
            ps.setString(1, t);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("table " + t + " not found in pg_class");
                }
                String kind = rs.getString(1);
                String persistence = rs.getString(2);
                if (!"r".equals(kind) && !"p".equals(kind)) {
                    f.addWithoutFix("table " + t + " is not a table (pg_class.relkind '" + kind + "'): the"
                            + " store's upsert needs a table with a primary key; create one from the shipped DDL");
                }
                if ("u".equals(persistence)) {
                    f.add(
                            "table " + t + " is UNLOGGED: a crash of PostgreSQL empties it, so every lock is free"
                                    + " again while its holders still run (two holders)",
                            "ALTER TABLE " + t + " SET LOGGED");
                } else if ("t".equals(persistence)) {
                    f.addWithoutFix("table " + t + " is TEMPORARY: every connection sees its own rows, so every"
                            + " instance has locks of its own. Drop it and create the table from the shipped DDL");
                }
            }
        }
    }

    private void checkSequence(Connection c, Findings f, int major) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT relkind, relpersistence FROM pg_class WHERE oid = CAST(? AS regclass)")) {
            ps.setString(1, sequence);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("sequence " + sequence + " not found in pg_class");
                }
                if (!"S".equals(rs.getString(1))) {
                    f.addWithoutFix(sequence + " is not a sequence (pg_class.relkind '" + rs.getString(1)
                            + "'); create the sequence from the shipped DDL");
                    return;
                }
                if ("u".equals(rs.getString(2))) {
                    f.add(
                            "sequence " + sequence + " is UNLOGGED: a crash of PostgreSQL resets it, so tokens go back",
                            "ALTER SEQUENCE " + sequence + " SET LOGGED; " + restartAboveTokens());
                }
            }
        }
        long increment;
        long cache;
        boolean cycle;
        // pg_sequence since PostgreSQL 10; before, the sequence relation itself has these columns
        String sql = major >= 10
                ? "SELECT seqincrement, seqcache, seqcycle FROM pg_sequence WHERE seqrelid = CAST(? AS regclass)"
                : "SELECT increment_by, cache_value, is_cycled FROM " + sequence;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (major >= 10) {
                ps.setString(1, sequence);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("sequence " + sequence + " not found in pg_sequence");
                }
                increment = rs.getLong(1);
                cache = rs.getLong(2);
                cycle = rs.getBoolean(3);
            }
        }
        if (cache != 1) {
            f.add(
                    "sequence " + sequence + " has CACHE " + cache + ": every session takes " + cache
                            + " values at a time,"
                            + " so two instances taking turns on a key get tokens 1, " + (cache + 1) + ", 2, "
                            + (cache + 2)
                            + ", ... and a stale holder's token passes a fence check",
                    "ALTER SEQUENCE " + sequence + " CACHE 1");
        }
        if (increment <= 0) {
            f.add(
                    "sequence " + sequence + " has INCREMENT BY " + increment
                            + ": tokens must grow with every acquisition",
                    "ALTER SEQUENCE " + sequence
                            + " INCREMENT BY 1 NO MINVALUE NO MAXVALUE START WITH 1 RESTART WITH 1; "
                            + restartAboveTokens());
        }
        if (cycle) {
            f.add(
                    "sequence " + sequence
                            + " is CYCLE: at its maximum it starts again from its minimum, so tokens go back",
                    "ALTER SEQUENCE " + sequence + " NO CYCLE; " + restartAboveTokens());
        }
    }

    /** Makes the sequence continue above every token in the table (a sequence that went back may be below). */
    private String restartAboveTokens() {
        return "SELECT setval('" + sequence + "', GREATEST((SELECT last_value FROM " + sequence + "),"
                + " (SELECT COALESCE(MAX(token), 0) FROM " + table + ")) + 1, false)";
    }

    private record Column(String name, String typname, String declared, int typmod, int attnum, Collation collation) {}

    /**
     * A collation as the catalog describes it.
     *
     * @param name its name
     * @param provider {@code c} (libc), {@code i} (ICU), {@code b} (builtin), {@code d} (the database's)
     * @param locale {@code collcollate} or the ICU locale, may be null
     * @param deterministic whether equal means byte-equal
     */
    private record Collation(String name, String provider, String locale, boolean deterministic) {

        boolean isDefault() {
            return "d".equals(provider);
        }

        Collation resolve(Collation databaseDefault) {
            return isDefault() ? databaseDefault : this;
        }

        boolean bytewise() {
            return deterministic
                    && ("b".equals(provider)
                            || "c".equals(provider) && locale != null && BYTEWISE_LIBC.contains(lower(locale)));
        }

        String describe() {
            String p = switch (provider) {
                case "c" -> "libc";
                case "i" -> "ICU";
                case "b" -> "builtin";
                default -> provider;
            };
            return "\"" + name + "\" (" + p + (locale == null ? "" : " " + locale) + ")";
        }
    }

    private Map<String, Column> columns(Connection c, int major, String t) throws SQLException {
        String deterministic = major >= 12 ? "co.collisdeterministic" : "TRUE";
        String locale = major >= 15 ? "COALESCE(co.collcollate, co.colliculocale)" : "co.collcollate";
        if (major >= 17) {
            locale = "COALESCE(co.collcollate, co.colllocale)";
        }
        Map<String, Column> columns = new HashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT a.attname, t.typname, format_type(a.atttypid, a.atttypmod),"
                        + " a.atttypmod, a.attnum, co.collname, co.collprovider, " + locale + ", " + deterministic
                        + " FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid"
                        + " LEFT JOIN pg_collation co ON co.oid = a.attcollation"
                        + " WHERE a.attrelid = CAST(? AS regclass) AND a.attnum > 0 AND NOT a.attisdropped"
                        + " AND a.attname IN ('lock_key', 'owner', 'token', 'expires_at', 'turn_waiter', 'turn_since',"
                        + " 'turn_until')")) {
            ps.setString(1, t);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Collation collation = rs.getString(6) == null
                            ? null
                            : new Collation(rs.getString(6), rs.getString(7), rs.getString(8), rs.getBoolean(9));
                    columns.put(
                            rs.getString(1),
                            new Column(
                                    rs.getString(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getInt(4),
                                    rs.getInt(5),
                                    collation));
                }
            }
        }
        return columns;
    }

    private static Collation databaseDefault(Connection c, int major) throws SQLException {
        String provider = major >= 15 ? "datlocprovider" : "'c'";
        String icu = major >= 17 ? "datlocale" : major >= 15 ? "daticulocale" : "NULL";
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT datcollate, " + provider + ", " + icu
                        + " FROM pg_database WHERE datname = current_database()")) {
            if (!rs.next()) {
                throw new SQLException("the current database is not in pg_database");
            }
            String p = rs.getString(2);
            String locale = "c".equals(p) ? rs.getString(1) : rs.getString(3);
            // A database's default collation is always deterministic.
            return new Collation("default", p, locale, true);
        }
    }

    private void checkColumns(Findings f, Map<String, Column> columns, Collation databaseDefault, String t) {
        Column key = columns.get("lock_key");
        if (key != null) {
            String type = key.declared;
            boolean typeOk = isVarchar(key, 500);
            if (!typeOk) {
                type = "VARCHAR(500)";
                f.add(
                        "column lock_key of " + t + " is " + key.declared
                                + ": it must be varchar(500) or longer, or"
                                + " text (char(n) pads keys with spaces, other types do not keep keys exactly)",
                        "ALTER TABLE " + t + " ALTER COLUMN lock_key TYPE VARCHAR(500) COLLATE \"C\"");
            }
            Collation collation = key.collation == null ? null : key.collation.resolve(databaseDefault);
            if (typeOk && collation != null && !collation.bytewise()) {
                String which = key.collation.isDefault()
                        ? "the database's default collation " + collation.describe()
                        : "collation " + collation.describe();
                String why = !collation.deterministic
                        ? "it is non-deterministic: keys that differ in case or accents (k and K) are one lock"
                        : "it orders keys by the rules of the C library or ICU, which change between their versions:"
                                + " after an upgrade the primary key index can miss a key's row and the store inserts a"
                                + " second row for the same key (two holders). Keys need a byte-wise collation such as"
                                + " \"C\"";
                f.add(
                        "column lock_key of " + t + " uses " + which + "; " + why,
                        "ALTER TABLE " + t + " ALTER COLUMN lock_key TYPE " + type + " COLLATE \"C\"");
            }
        }
        Column owner = columns.get("owner");
        if (owner != null) {
            boolean typeOk = isVarchar(owner, 64);
            Collation collation = owner.collation == null ? null : owner.collation.resolve(databaseDefault);
            boolean collationOk = collation == null || collation.deterministic;
            if (!typeOk || !collationOk) {
                f.add(
                        "column owner of " + t + " is " + owner.declared
                                + (collationOk
                                        ? ""
                                        : " with the non-deterministic collation " + collation.describe()
                                                + " (owners that differ in case would be one owner)")
                                + ": it must be varchar(64) or longer, or text, with a deterministic collation",
                        "ALTER TABLE " + t + " ALTER COLUMN owner TYPE VARCHAR(64) COLLATE \"C\"");
            }
        }
        Column token = columns.get("token");
        if (token != null && !"int8".equals(token.typname)) {
            f.add(
                    "column token of " + t + " is " + token.declared + ": fencing tokens are bigint",
                    "ALTER TABLE " + t + " ALTER COLUMN token TYPE BIGINT");
        }
        Column expiry = columns.get("expires_at");
        if (expiry != null && !("timestamptz".equals(expiry.typname) && (expiry.typmod < 0 || expiry.typmod >= 6))) {
            f.add(
                    "column expires_at of " + t + " is " + expiry.declared
                            + ": it must be timestamp(6) with time zone"
                            + " (with fewer fractional digits a lease is rounded and can end before it began; without time"
                            + " zone a session's TimeZone setting moves every lease)",
                    "ALTER TABLE " + t + " ALTER COLUMN expires_at TYPE TIMESTAMP(6) WITH TIME ZONE");
        }
    }

    private void checkTurnColumns(Findings f, Map<String, Column> columns, Collation databaseDefault) {
        requireTurnColumns(
                f,
                columns.keySet(),
                Map.of(
                        "turn_waiter",
                        "VARCHAR(64) COLLATE \"C\"",
                        "turn_since",
                        "TIMESTAMP(6) WITH TIME ZONE",
                        "turn_until",
                        "TIMESTAMP(6) WITH TIME ZONE"));
        Column waiter = columns.get("turn_waiter");
        if (waiter != null) {
            Collation collation = waiter.collation == null ? null : waiter.collation.resolve(databaseDefault);
            if (!isVarchar(waiter, 64) || collation != null && !collation.deterministic) {
                f.add(
                        "column turn_waiter of " + table + " is " + waiter.declared
                                + (collation == null || collation.deterministic
                                        ? ""
                                        : " with the non-deterministic collation " + collation.describe())
                                + ": it must be varchar(64) or longer, or text, with a deterministic collation, like owner",
                        "ALTER TABLE " + table + " ALTER COLUMN turn_waiter TYPE VARCHAR(64) COLLATE \"C\"");
            }
        }
        for (String name : new String[] {"turn_since", "turn_until"}) {
            Column time = columns.get(name);
            if (time != null && !isTimestamptz6(time)) {
                f.add(
                        "column " + name + " of " + table + " is " + time.declared + ": it must be timestamp(6) with"
                                + " time zone, like expires_at",
                        "ALTER TABLE " + table + " ALTER COLUMN " + name + " TYPE TIMESTAMP(6) WITH TIME ZONE");
            }
        }
    }

    private static boolean isTimestamptz6(Column column) {
        return "timestamptz".equals(column.typname) && (column.typmod < 0 || column.typmod >= 6);
    }

    private static boolean isVarchar(Column column, int minLength) {
        return "text".equals(column.typname)
                || "varchar".equals(column.typname) && (column.typmod < 0 || column.typmod - 4 >= minLength);
    }

    private void checkKeys(Connection c, Findings f, int keyAttnum, Collation databaseDefault, int major)
            throws SQLException {
        String deterministic = major >= 12 ? "co.collisdeterministic" : "TRUE";
        String locale = major >= 17
                ? "COALESCE(co.collcollate, co.colllocale)"
                : major >= 15 ? "COALESCE(co.collcollate, co.colliculocale)" : "co.collcollate";
        boolean primary = false;
        String otherPrimary = null;
        try (PreparedStatement ps =
                c.prepareStatement("SELECT quote_ident(n.nspname) || '.' || quote_ident(ic.relname),"
                        + " i.indisprimary, CAST(i.indkey AS TEXT), i.indexprs IS NULL AND i.indpred IS NULL,"
                        + " (SELECT quote_ident(conname) FROM pg_constraint WHERE conindid = i.indexrelid AND contype = 'p'),"
                        + " co.collname, co.collprovider, " + locale + ", " + deterministic
                        + " FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = ic.relnamespace"
                        + " LEFT JOIN pg_collation co ON co.oid = i.indcollation[0]"
                        + " WHERE i.indrelid = CAST(? AS regclass) AND i.indisunique")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean onKeyOnly = rs.getBoolean(4)
                            && String.valueOf(keyAttnum).equals(rs.getString(3).strip());
                    if (rs.getBoolean(2)) {
                        if (onKeyOnly) {
                            primary = true;
                        } else {
                            otherPrimary = rs.getString(5);
                        }
                    } else if (onKeyOnly && rs.getString(6) != null) {
                        Collation collation = new Collation(
                                        rs.getString(6), rs.getString(7), rs.getString(8), rs.getBoolean(9))
                                .resolve(databaseDefault);
                        if (!collation.bytewise()) {
                            f.add(
                                    "unique index " + rs.getString(1) + " on lock_key uses collation "
                                            + collation.describe()
                                            + ": INSERT ... ON CONFLICT (lock_key) takes it as an arbiter too, so keys it"
                                            + " compares as equal are one lock",
                                    "DROP INDEX " + rs.getString(1));
                        }
                    }
                }
            }
        }
        if (!primary) {
            String what = "table " + table + " has "
                    + (otherPrimary == null
                            ? "no primary key"
                            : "its primary key " + otherPrimary + " on other columns than lock_key alone")
                    + ": the store needs exactly one row per"
                    + " key, its primary key (lock_key)";
            f.add(
                    what,
                    "ALTER TABLE " + table + (otherPrimary == null ? "" : " DROP CONSTRAINT " + otherPrimary + ",")
                            + " ADD PRIMARY KEY (lock_key)");
        }
    }
}
