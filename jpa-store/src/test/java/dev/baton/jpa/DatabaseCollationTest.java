package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.internal.DialectFactory;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A key column without a collation of its own compares by the database's: the schema check judges
 * that one. Each case runs in a database of its own, created for it and dropped afterwards.
 */
class DatabaseCollationTest {

    /** PostgreSQL: a database whose default is ICU refuses a key column without COLLATE; a "C" default accepts it. */
    @Test
    void postgresqlKeyColumnWithoutCollateIsJudgedByTheDatabaseDefault() throws Exception {
        Backend backend = new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE);
        String suffix = TestDatabases.runSuffix();
        String icu = "bt_icu_" + suffix;
        String c = "bt_c_" + suffix;
        backend.execute(
                "DROP DATABASE IF EXISTS " + icu,
                "DROP DATABASE IF EXISTS " + c,
                "CREATE DATABASE " + icu
                        + " TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE 'und'",
                "CREATE DATABASE " + c + " TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'");
        try {
            String table = "baton_locks";
            List<String> ddl =
                    DialectFactory.create(JpaDatabase.POSTGRESQL, table, "baton_fencing_seq")
                            .createStatements()
                            .stream()
                            .map(s -> s.replace("COLLATE \"C\" NOT NULL PRIMARY KEY", "NOT NULL PRIMARY KEY"))
                            .toList();

            String icuUrl = otherDatabase(backend.url(), icu);
            run(icuUrl, ddl);
            EntityManagerFactory factory = backend.newFactory(icuUrl);
            try (JpaLockStore store = JpaLockStore.builder(factory).build()) {
                assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                        .isInstanceOf(LockConfigurationException.class)
                        .hasMessageContaining("the database's default collation")
                        .hasMessageContaining("ICU")
                        .hasMessageContaining("COLLATE \"C\"")
                        .satisfies(e -> run(icuUrl, SchemaCheckSuite.fixes(e.getMessage())));
                assertThat(store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000))
                                .isAcquired())
                        .as("after the fix")
                        .isTrue();
            } finally {
                factory.close();
            }

            String cUrl = otherDatabase(backend.url(), c);
            run(cUrl, ddl);
            EntityManagerFactory cFactory = backend.newFactory(cUrl);
            try (JpaLockStore store = JpaLockStore.builder(cFactory).build()) {
                assertThat(store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000))
                                .isAcquired())
                        .as("default collation C")
                        .isTrue();
                assertThat(store.acquire(Acquisition.of("K", JpaTestOwners.owner(), 1000))
                                .isAcquired())
                        .isTrue();
            } finally {
                cFactory.close();
            }
        } finally {
            backend.execute(
                    "DROP DATABASE IF EXISTS " + icu + " WITH (FORCE)",
                    "DROP DATABASE IF EXISTS " + c + " WITH (FORCE)");
        }
    }

    /** H2: a database with {@code SET COLLATION} compares keys by language rules; the store refuses it. */
    @Test
    void h2DatabaseWithACollationIsRefused() throws Exception {
        Backend backend = new Backend(JpaDatabase.H2, Provider.HIBERNATE);
        String url = "jdbc:h2:mem:collated_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
        try (Connection keepAlive = DriverManager.getConnection(url)) {
            run(url, List.of("SET COLLATION ENGLISH STRENGTH PRIMARY"));
            run(
                    url,
                    DialectFactory.create(JpaDatabase.H2, "baton_locks", "baton_fencing_seq")
                            .createStatements());
            EntityManagerFactory factory = backend.newFactory(url);
            try (JpaLockStore store = JpaLockStore.builder(factory)
                    .schemaAction(SchemaAction.CREATE)
                    .build()) {
                assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                        .isInstanceOf(LockConfigurationException.class)
                        .hasMessageContaining("lock_key")
                        .hasMessageContaining("ENGLISH");
            } finally {
                factory.close();
            }
            try (Statement st = keepAlive.createStatement()) {
                st.execute("SHUTDOWN");
            }
        }
    }

    private static String otherDatabase(String url, String database) {
        return url.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
    }

    private static void run(String url, List<String> statements) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
