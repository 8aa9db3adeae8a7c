package dev.baton.jpa;

import java.util.Locale;

/**
 * What the JPA store does with its table and sequence when it first connects ({@code baton.jpa.schema-action}).
 *
 * <p>Under every action the store then checks, once, that the table and the sequence exist and keep
 * what its locks and fencing tokens rest on (key column type and byte-wise collation, primary key,
 * expiry precision and time zone, token type, a sequence that only grows in the order it is drawn),
 * and refuses to run otherwise: a {@link dev.baton.LockConfigurationException} naming every problem
 * and the DDL that fixes it, at each operation until the schema is fixed. A missing table or sequence
 * fails the operation with a {@link dev.baton.LockStoreException}, and the next operation tries again.
 */
public enum SchemaAction {

    /**
     * Creates nothing: the schema is managed elsewhere (Flyway, Liquibase, a DBA), from the shipped SQL
     * files. The default.
     */
    NONE,

    /**
     * Creates the table and the sequence if they do not exist, from the shipped SQL files. Idempotent,
     * and safe when several instances start at once. An existing table or sequence is not changed, only
     * checked.
     */
    CREATE,

    /**
     * Creates nothing, like {@link #NONE}: every action checks the schema. Kept for configurations that
     * say so.
     */
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
