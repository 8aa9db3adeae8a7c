package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * SQL identifiers the store puts into its statements: table and sequence names, never user data.
 * They are written unquoted, so a name must be a plain identifier and no part of it a reserved word
 * of any supported database ({@link ReservedWords}, which says why names are rejected rather than
 * quoted).
 */
public final class Identifiers {

    /** A plain identifier, optionally schema-qualified: letters, digits, underscores, 63 chars each. */
    private static final Pattern IDENTIFIER =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    private Identifiers() {}

    /**
     * Whether {@code name} is a plain (optionally schema-qualified) identifier that needs no quoting.
     *
     * @param name the name
     * @return whether it is valid
     */
    public static boolean isValid(String name) {
        return problem(name) == null;
    }

    /**
     * What is wrong with a name, to follow it in a message ({@code "baton.jpa.table='order' " + problem}).
     *
     * @param name the name
     * @return e.g. {@code "is a reserved word of PostgreSQL, MariaDB and H2 ..."}; null if the name is valid
     */
    public static String problem(String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            return "is not " + rule();
        }
        int dot = name.indexOf('.');
        String[] parts = dot < 0 ? new String[] {name} : new String[] {name.substring(0, dot), name.substring(dot + 1)};
        for (int i = 0; i < parts.length; i++) {
            Set<JpaDatabase> on = ReservedWords.reservedOn(parts[i]);
            if (!on.isEmpty()) {
                String which = parts.length == 1
                        ? "is"
                        : "has " + (i == 0 ? "the schema part '" : "the name part '") + parts[i] + "', which is";
                return which + " a reserved word of " + names(on) + " SQL; the store writes names unquoted, so every"
                        + " statement would fail. Choose another name (e.g. " + parts[i] + "_locks)";
            }
        }
        return null;
    }

    /**
     * The rule, for error messages.
     *
     * @return what a valid name looks like
     */
    public static String rule() {
        return "a plain SQL identifier (letters, digits and '_', not starting with a digit, at most 63 chars,"
                + " not a reserved word of PostgreSQL, MariaDB or H2), optionally qualified by a schema as schema.name";
    }

    private static String names(Set<JpaDatabase> databases) {
        List<String> names = new ArrayList<>();
        for (JpaDatabase database : databases) {
            names.add(
                    switch (database) {
                        case POSTGRESQL -> "PostgreSQL";
                        case MARIADB -> "MariaDB";
                        case H2 -> "H2";
                    });
        }
        return names.size() == 1
                ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
}
