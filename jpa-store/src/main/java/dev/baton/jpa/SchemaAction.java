package dev.baton.jpa;

import java.util.Locale;

/** What the JPA store does with its table and sequence when it first connects ({@code baton.jpa.schema-action}). */
public enum SchemaAction {

    /** Nothing: the schema is managed elsewhere (Flyway, Liquibase, a DBA), from the shipped SQL files. The default. */
    NONE,

    /**
     * Creates the table and the sequence if they do not exist. Idempotent, and safe when several
     * instances start at once.
     */
    CREATE,

    /** Checks that the table and the sequence exist and can be used; fails the first operation otherwise. */
    VALIDATE;

    /**
     * The action for a configuration value.
     *
     * @param value {@code none}, {@code create} or {@code validate}, in any case
     * @return the action
     * @throws IllegalArgumentException if the value is none of them
     */
    public static SchemaAction parse(String value) {
        String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        for (SchemaAction action : values()) {
            if (action.name().equals(v)) {
                return action;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a schema action: use none, create or validate");
    }
}
