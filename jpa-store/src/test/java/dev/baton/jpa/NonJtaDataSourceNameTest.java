package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Connections;
import dev.baton.jpa.testing.Pools;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestJndi;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A persistence unit whose {@code <non-jta-data-source>} is a JNDI name, as a server's persistence.xml names it
 * (the matrix's {@code *DataSourceTest} cells give the data source object itself): the store takes its
 * connections from the data source bound to the name. EclipseLink failed every acquisition on such a unit with a
 * {@code NullPointerException} on PostgreSQL and MariaDB (its pool lends accessors with no connection).
 */
class NonJtaDataSourceNameTest {

    @BeforeAll
    static void installJndi() {
        TestJndi.install();
    }

    @AfterAll
    static void uninstallJndi() {
        TestJndi.uninstall();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource({"POSTGRESQL, ECLIPSELINK", "POSTGRESQL, HIBERNATE", "MARIADB, ECLIPSELINK", "MARIADB, HIBERNATE"})
    void aUnitOnANamedDataSourceAcquiresRenewsAndReleases(JpaDatabase database, Provider provider) {
        Backend backend = new Backend(database, provider, Connections.DATA_SOURCE);
        String name = "jdbc/locks-" + UUID.randomUUID();
        TestJndi.bind(name, Pools.of(backend.url(), backend.driver()));
        EntityManagerFactory factory = backend.newFactory(
                backend.url(), Map.of("jakarta.persistence.nonJtaDataSource", name)); // the name, as a String
        try (JpaLockStore store = backend.store(factory, backend.tableName("jndi"))) {
            String key = "jndi:" + UUID.randomUUID();
            String owner = JpaTestOwners.owner();
            AcquireResult first = store.acquire(Acquisition.of(key, owner, 60_000));
            assertThat(first.isAcquired()).isTrue();
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                            .isAcquired())
                    .isFalse();
            assertThat(store.renew(Renewal.of(key, owner, 60_000))).isTrue();
            assertThat(store.release(key, owner)).isTrue();
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                            .fencingToken())
                    .isGreaterThan(first.fencingToken());
        } finally {
            factory.close();
        }
    }
}
