package dev.baton.jpa.internal;

import java.util.regex.Pattern;

/** SQL identifiers the store puts into its statements: table and sequence names, never user data. */
public final class Identifiers {

    /** A plain identifier, optionally schema-qualified: letters, digits, underscores, 63 chars each. */
    private static final Pattern IDENTIFIER =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    private Identifiers() {
    }

    /**
     * Whether {@code name} is a plain (optionally schema-qualified) identifier that needs no quoting.
     *
     * @param name the name
     * @return whether it is valid
     */
    public static boolean isValid(String name) {
        return name != null && IDENTIFIER.matcher(name).matches();
    }

    /**
     * The rule, for error messages.
     *
     * @return what a valid name looks like
     */
    public static String rule() {
        return "a plain SQL identifier (letters, digits and '_', not starting with a digit, at most 63 chars),"
                + " optionally qualified by a schema as schema.name";
    }
}
