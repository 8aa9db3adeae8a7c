package dev.baton.jpa.testing;

/** Where a test persistence unit's connections come from. */
public enum Connections {
    /** The provider's own pool, from {@code jakarta.persistence.jdbc.url} and {@code .driver}. */
    PROVIDER_POOL,
    /**
     * A HikariCP {@link javax.sql.DataSource} given as {@code jakarta.persistence.nonJtaDataSource}: what a server
     * lends a {@code <non-jta-data-source>} unit (GlassFish and Payara, whose provider is EclipseLink), the
     * connections in auto-commit mode.
     */
    DATA_SOURCE
}
