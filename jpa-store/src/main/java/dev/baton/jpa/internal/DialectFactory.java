package dev.baton.jpa.internal;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.JpaDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Which statements to use: the dialect of a database, named or detected from a connection's metadata. The
 * statements themselves are in the {@link Dialect} of each database, the DDL in {@link SchemaScript}.
 */
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

    /**
     * The dialect of the database {@code connection} talks to.
     *
     * @param connection a connection
     * @param table the table name (a valid identifier)
     * @param sequence the sequence name (a valid identifier)
     * @return the dialect
     * @throws SQLException if the metadata cannot be read
     * @throws LockConfigurationException if the database is not supported
     */
    public static Dialect detect(Connection connection, String table, String sequence) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String product = meta.getDatabaseProductName();
        String version = meta.getDatabaseProductVersion();
        int major = meta.getDatabaseMajorVersion();
        int minor = meta.getDatabaseMinorVersion();
        String p = product == null ? "" : product.toLowerCase(Locale.ROOT);
        String v = version == null ? "" : version.toLowerCase(Locale.ROOT);
        if (p.contains("postgresql") && (major > 9 || major == 9 && minor >= 5)) {
            return new PostgresDialect(table, sequence);
        }
        if ((p.contains("mariadb") || p.contains("mysql") && v.contains("mariadb"))
                && (major > 10 || major == 10 && minor >= 5)) {
            return new MariaDbDialect(table, sequence);
        }
        if (p.equals("h2") && major >= 2) {
            return new H2Dialect(table, sequence);
        }
        throw new LockConfigurationException("Unsupported database for the JPA lock store: " + product + " " + version
                + ". Supported: PostgreSQL 9.5+, MariaDB 10.5+ and H2 2.x"
                + (p.contains("mysql") ? " (MySQL has no sequences and no RETURNING; it is not supported yet)" : ""));
    }
}
