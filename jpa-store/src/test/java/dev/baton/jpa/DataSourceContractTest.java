package dev.baton.jpa;

import dev.baton.jpa.testing.JtaDataSource;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Nested;

/**
 * The TCK's store contract on stores built on a plain pooled {@link javax.sql.DataSource}
 * ({@link JpaLockStore#builder(javax.sql.DataSource)}, what {@code baton.jpa.data-source} builds): no
 * persistence unit, no JPA provider; every call a new store instance on the same table.
 */
class DataSourceContractTest {

    private static final Map<JpaDatabase, JtaDataSource> POOLS = new ConcurrentHashMap<>();

    abstract static class OnDataSource extends LockStoreContract {
        abstract JpaDatabase database();

        LockMode mode() {
            return LockMode.TABLE;
        }

        @Override
        protected LockStore createStore() {
            JpaDatabase database = database();
            String table = "bt_ds" + (mode() == LockMode.TABLE ? "tck" : "tcka") + "_" + TestDatabases.runSuffix();
            TestDatabases.created(database, table);
            JpaLockStore store = JpaLockStore.builder(
                            POOLS.computeIfAbsent(database, d -> new JtaDataSource(TestDatabases.url(d), null)))
                    .table(table)
                    .sequence(table + "_seq")
                    .schemaAction(SchemaAction.CREATE)
                    .mode(mode())
                    .build();
            if (database == JpaDatabase.POSTGRESQL) {
                store.database(); // connected: it declares release notifications when the TCK reads its capabilities
            }
            return store;
        }
    }

    @Nested
    class Postgres extends OnDataSource {
        @Override
        JpaDatabase database() {
            return JpaDatabase.POSTGRESQL;
        }
    }

    @Nested
    class PostgresAdvisory extends OnDataSource {
        @Override
        JpaDatabase database() {
            return JpaDatabase.POSTGRESQL;
        }

        @Override
        LockMode mode() {
            return LockMode.ADVISORY;
        }
    }

    @Nested
    class MariaDb extends OnDataSource {
        @Override
        JpaDatabase database() {
            return JpaDatabase.MARIADB;
        }
    }

    @Nested
    class MariaDbAdvisory extends OnDataSource {
        @Override
        JpaDatabase database() {
            return JpaDatabase.MARIADB;
        }

        @Override
        LockMode mode() {
            return LockMode.ADVISORY;
        }
    }

    @Nested
    class H2 extends OnDataSource {
        @Override
        JpaDatabase database() {
            return JpaDatabase.H2;
        }
    }
}
