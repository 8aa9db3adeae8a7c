package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shipped DDL of each database ({@code META-INF/baton/sql/<database>/create.sql}, usable as-is from
 * Flyway or Liquibase), and its statements with the configured table and sequence names.
 */
public final class SchemaScript {

    private SchemaScript() {}

    /**
     * The DDL statements of a database, with the configured names.
     *
     * @param database the database
     * @param table the table name (a valid identifier)
     * @param sequence the sequence name (a valid identifier)
     * @return the statements, in order, without their semicolons
     */
    public static List<String> statements(JpaDatabase database, String table, String sequence) {
        String script = read(database);
        script = replaceWord(script, Dialect.DEFAULT_TABLE, table);
        script = replaceWord(script, Dialect.DEFAULT_SEQUENCE, sequence);
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

    private static String replaceWord(String text, String word, String replacement) {
        return Pattern.compile("\\b" + Pattern.quote(word) + "\\b")
                .matcher(text)
                .replaceAll(Matcher.quoteReplacement(replacement));
    }
}
