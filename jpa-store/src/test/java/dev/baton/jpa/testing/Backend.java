package dev.baton.jpa.testing;

import dev.baton.jpa.JpaDatabase;
import dev.baton.jpa.JpaLockStore;
import dev.baton.jpa.LockMode;
import dev.baton.jpa.SchemaAction;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One cell of the test matrix: a database under a JPA provider, on the provider's pool or a data source.
 * Entity manager factories are made per JDBC URL and cached for the JVM; a test that needs "another
 * application instance" asks for a {@link #newFactory()} and closes it itself.
 *
 * @param database the database
 * @param provider the JPA provider
 * @param connections where the persistence unit's connections come from
 */
public record Backend(JpaDatabase database, Provider provider, Connections connections) {

    private static final Map<String, EntityManagerFactory> SHARED = new ConcurrentHashMap<>();

    /**
     * A cell on the provider's own pool.
     *
     * @param database the database
     * @param provider the JPA provider
     */
    public Backend(JpaDatabase database, Provider provider) {
        this(database, provider, Connections.PROVIDER_POOL);
    }

    /** @return every combination, the matrix */
    public static Stream<Backend> all() {
        return Stream.of(JpaDatabase.values())
                .flatMap(db -> Stream.of(Provider.values()).map(p -> new Backend(db, p)));
    }

    /** @return every combination, as a list */
    public static List<Backend> matrix() {
        return all().toList();
    }

    /** @return the JDBC URL, starting the database if needed */
    public String url() {
        return TestDatabases.url(database);
    }

    /** @return the factory shared by the tests of this combination */
    public EntityManagerFactory sharedFactory() {
        return SHARED.computeIfAbsent(provider + "|" + connections + "|" + url(), k -> newFactory(url()));
    }

    /** @return a new factory on the same database: another application instance; the caller closes it */
    public EntityManagerFactory newFactory() {
        return newFactory(url());
    }

    /**
     * A new factory on another URL (e.g. through a proxy).
     *
     * @param url the JDBC URL
     * @return the factory; the caller closes it
     */
    public EntityManagerFactory newFactory(String url) {
        return newFactory(url, Map.of());
    }

    /**
     * A new factory on another URL, with more properties of the persistence unit.
     *
     * @param url the JDBC URL
     * @param more properties to add
     * @return the factory; the caller closes it
     */
    public EntityManagerFactory newFactory(String url, Map<String, Object> more) {
        Map<String, Object> properties = new HashMap<>(more);
        if (connections == Connections.DATA_SOURCE) {
            // the data source object, unless the test names one (a JNDI name)
            properties.computeIfAbsent("jakarta.persistence.nonJtaDataSource", k -> Pools.of(url, driver()));
        } else {
            properties.put("jakarta.persistence.jdbc.url", url);
            properties.put("jakarta.persistence.jdbc.driver", driver());
        }
        return Persistence.createEntityManagerFactory(provider.unit(), properties);
    }

    /** @return the JDBC driver's class name */
    public String driver() {
        return switch (database) {
            case POSTGRESQL -> "org.postgresql.Driver";
            case MARIADB -> "org.mariadb.jdbc.Driver";
            case H2 -> "org.h2.Driver";
        };
    }

    /**
     * A table (and sequence) name unique to this JVM run and combination.
     *
     * @param purpose a short word
     * @return e.g. {@code bt_basic_hib_4f2a}
     */
    public String tableName(String purpose) {
        String table = "bt_" + purpose + "_" + provider.name().substring(0, 3).toLowerCase(Locale.ROOT)
                + (connections == Connections.DATA_SOURCE ? "ds" : "") + "_" + TestDatabases.runSuffix();
        TestDatabases.created(database, table);
        return table;
    }

    /**
     * A store on the shared factory, creating its schema on first use.
     *
     * @param table the table (the sequence is {@code <table>_seq})
     * @return a new store instance
     */
    public JpaLockStore store(String table) {
        return store(sharedFactory(), table);
    }

    /**
     * A store on a factory, creating its schema on first use.
     *
     * @param factory the factory
     * @param table the table
     * @return a new store instance
     */
    public JpaLockStore store(EntityManagerFactory factory, String table) {
        return store(factory, table, LockMode.TABLE);
    }

    /**
     * A store in a mode on a factory, creating its schema on first use.
     *
     * @param factory the factory
     * @param table the table (the sequence is {@code <table>_seq})
     * @param mode the mode
     * @return a new store instance
     */
    public JpaLockStore store(EntityManagerFactory factory, String table, LockMode mode) {
        return JpaLockStore.builder(factory)
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.CREATE)
                .mode(mode)
                .build();
    }

    /**
     * Runs SQL on a plain JDBC connection, outside the provider.
     *
     * @param sql the statements
     */
    public void execute(String... sql) {
        try (Connection c = TestDatabases.connect(database);
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return database + "+" + provider + (connections == Connections.DATA_SOURCE ? "+DataSource" : "");
    }
}
