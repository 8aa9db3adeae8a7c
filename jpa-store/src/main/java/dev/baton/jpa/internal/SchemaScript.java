package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shipped DDL of each database ({@code META-INF/baton/sql/<database>/create.sql}, usable as-is from
 * Flyway or Liquibase), and its statements with the configured table and sequence names.
 */
public final class SchemaScript {

    /** What the table of shared leases adds to the lock table's name ({@link #sharedTableOf}). */
    public static final String SHARED_TABLE_SUFFIX = "_shared";

    /** The names the shipped DDL uses, each a whole word, replaced in one pass (one may contain another). */
    private static final Pattern DEFAULT_NAMES = Pattern.compile("\\b(" + sharedTableOf(Dialect.DEFAULT_TABLE) + "|"
            + Dialect.DEFAULT_TABLE + "|" + Dialect.DEFAULT_SEQUENCE + ")\\b");

    private SchemaScript() {}

    /**
     * The table of a lock table's shared leases ({@link dev.baton.spi.StoreCapability#SHARED_LOCKS}): its name with
     * {@value #SHARED_TABLE_SUFFIX}, in the same schema ({@code baton_locks_shared}, {@code app.locks_shared}).
     *
     * @param table the lock table as configured
     * @return the table of its shared leases
     */
    public static String sharedTableOf(String table) {
        return table + SHARED_TABLE_SUFFIX;
    }

    /**
     * The DDL statements of a database, with the configured names.
     *
     * @param database the database
     * @param table the table name (a valid identifier); the table of shared leases is named after it
     * @param sequence the sequence name (a valid identifier)
     * @return the statements, in order, without their semicolons
     */
    public static List<String> statements(JpaDatabase database, String table, String sequence) {
        Map<String, String> names = Map.of(
                sharedTableOf(Dialect.DEFAULT_TABLE),
                sharedTableOf(table),
                Dialect.DEFAULT_TABLE,
                table,
                Dialect.DEFAULT_SEQUENCE,
                sequence);
        String script =
                DEFAULT_NAMES.matcher(read(database)).replaceAll(m -> Matcher.quoteReplacement(names.get(m.group(1))));
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        return statements;
    }

    /**
     * The shipped DDL of a database.
     *
     * @param database the database
     * @return the script's text
     */
    public static String read(JpaDatabase database) {
        String path = "META-INF/baton/sql/" + database.folder() + "/create.sql";
        try (InputStream in = SchemaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The statement of the DDL that creates a table, on one line (for a message's {@code Fix:}).
     *
     * @param database the database
     * @param table the lock table as configured
     * @param sequence the sequence as configured
     * @param created the table the statement creates: the lock table, or the table of its shared leases
     * @return the statement
     * @throws IllegalStateException if the DDL creates no such table
     */
    public static String createTable(JpaDatabase database, String table, String sequence, String created) {
        String prefix = "CREATE TABLE IF NOT EXISTS " + created + " (";
        return statements(database, table, sequence).stream()
                .filter(sql -> sql.startsWith(prefix))
                .map(sql -> sql.replaceAll("\\s+", " ").replace("( ", "(").replace(" )", ")"))
                .findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("the DDL of " + database + " creates no table " + created));
    }
}
