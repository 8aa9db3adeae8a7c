package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;

/** Dialects by database, for callers outside this package. */
public final class DialectFactory {

    private DialectFactory() {}

    /**
     * The dialect of a database.
     *
     * @param database the database
     * @param table the table (a valid identifier)
     * @param sequence the sequence (a valid identifier)
     * @return the dialect
     */
    public static Dialect create(JpaDatabase database, String table, String sequence) {
        return switch (database) {
            case POSTGRESQL -> new PostgresDialect(table, sequence);
            case MARIADB -> new MariaDbDialect(table, sequence);
            case H2 -> new H2Dialect(table, sequence);
        };
    }
}
