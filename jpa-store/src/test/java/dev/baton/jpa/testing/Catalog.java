package dev.baton.jpa.testing;

import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the database's catalog says about a lock table and its sequence, without their names: two
 * schemas made in different ways (the store's {@code create}, a migration tool) are the same schema
 * when their descriptions are equal. Columns with type, size, precision, nullability, default and
 * collation; the primary key; the kind of table; every attribute of the sequence.
 */
public final class Catalog {

    private Catalog() {}

    /**
     * Describes a table and a sequence.
     *
     * @param db the database
     * @param table the table (unqualified)
     * @param sequence the sequence (unqualified)
     * @return one line per fact, in a fixed order
     */
    public static List<String> describe(FreshDatabase db, String table, String sequence) {
        JpaDatabase database = db.database();
        // H2 keeps unquoted names in upper case, the others in lower case
        String t = database == JpaDatabase.H2 ? table.toUpperCase(Locale.ROOT) : table;
        String s = database == JpaDatabase.H2 ? sequence.toUpperCase(Locale.ROOT) : sequence;
        List<String> lines = new ArrayList<>();
        try (Connection c = db.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            try (ResultSet rs = meta.getColumns(c.getCatalog(), null, t, null)) {
                while (rs.next()) {
                    lines.add("column " + rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME")
                            + "(" + rs.getInt("COLUMN_SIZE") + "," + rs.getInt("DECIMAL_DIGITS") + ") nullable="
                            + rs.getInt("NULLABLE") + " default=" + rs.getString("COLUMN_DEF"));
                }
            }
            try (ResultSet rs = meta.getPrimaryKeys(c.getCatalog(), null, t)) {
                while (rs.next()) {
                    lines.add("primary key " + rs.getInt("KEY_SEQ") + " " + rs.getString("COLUMN_NAME"));
                }
            }
            switch (database) {
                case POSTGRESQL -> {
                    rows(
                            c,
                            lines,
                            "SELECT column_name, collation_name FROM information_schema.columns"
                                    + " WHERE table_name = ? ORDER BY ordinal_position",
                            t);
                    rows(c, lines, "SELECT relkind, relpersistence FROM pg_class WHERE relname = ?", t);
                    rows(
                            c,
                            lines,
                            "SELECT data_type, start_value, minimum_value, maximum_value, increment, cycle_option"
                                    + " FROM information_schema.sequences WHERE sequence_name = ?",
                            s);
                    rows(c, lines, "SELECT cache_size FROM pg_sequences WHERE sequencename = ?", s);
                }
                case MARIADB -> {
                    rows(
                            c,
                            lines,
                            "SELECT column_name, column_type, character_set_name, collation_name"
                                    + " FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?"
                                    + " ORDER BY ordinal_position",
                            t);
                    rows(
                            c,
                            lines,
                            "SELECT table_type, engine FROM information_schema.tables"
                                    + " WHERE table_schema = DATABASE() AND table_name = ?",
                            t);
                    rows(
                            c,
                            lines,
                            "SELECT minimum_value, maximum_value, start_value, increment, cache_size, cycle_option"
                                    + " FROM " + s);
                }
                case H2 -> {
                    rows(c, lines, "SELECT TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = ?", t);
                    rows(
                            c,
                            lines,
                            "SELECT DATA_TYPE, START_VALUE, MINIMUM_VALUE, MAXIMUM_VALUE, INCREMENT, CYCLE_OPTION,"
                                    + " CACHE FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_NAME = ?",
                            s);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the catalog of " + db, e);
        }
        return lines;
    }

    /** Adds each row of a query as one line {@code column=value ...}; a query without rows adds "none". */
    private static void rows(Connection c, List<String> lines, String sql, String... parameters) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                boolean any = false;
                while (rs.next()) {
                    any = true;
                    StringBuilder line = new StringBuilder();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        line.append(i == 1 ? "" : " ")
                                .append(meta.getColumnLabel(i).toLowerCase(Locale.ROOT))
                                .append('=')
                                .append(rs.getString(i));
                    }
                    lines.add(line.toString());
                }
                if (!any) {
                    lines.add("none: " + sql.replaceAll("\\s+", " "));
                }
            }
        }
    }
}
