package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.LockStoreException;
import dev.baton.spi.Acquisition;
import dev.baton.spi.KeyFormat;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** {@code baton.store=jpa}: settings are checked at deployment, without connecting. */
class JpaLockStoreFactoryTest {

    /** Settings from a map, beans from another: what the runtime hands a factory. */
    static final class Context implements StoreContext {
        final Map<String, String> settings = new HashMap<>();
        final Map<Class<?>, Object> beans = new HashMap<>();
        KeyFormat logKeys = KeyFormat.PLAIN;

        Context with(String name, String value) {
            settings.put(name, value);
            return this;
        }

        @Override
        public String managerName() {
            return "";
        }

        @Override
        public Optional<String> setting(String name) {
            return Optional.ofNullable(settings.get(name));
        }

        @Override
        public String settingKey(String name) {
            return "baton.jpa." + name;
        }

        @Override
        public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
            return Optional.ofNullable(type.cast(beans.get(type)));
        }

        @Override
        public KeyFormat logKeys() {
            return logKeys;
        }
    }

    private static LockStoreFactory factory() {
        return ServiceLoader.load(LockStoreFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("jpa"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void isFoundByName() {
        assertThat(factory().name()).isEqualTo("jpa");
    }

    @Test
    void badIdentifiersNameKeyAndValue() {
        Context context =
                new Context().with("persistence-unit", "baton-hibernate").with("table", "locks; DROP TABLE x");
        assertThatThrownBy(() -> factory().validate(context))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.table")
                .hasMessageContaining("locks; DROP TABLE x");
        Context seq = new Context().with("persistence-unit", "baton-hibernate").with("sequence", "9seq");
        assertThatThrownBy(() -> factory().validate(seq))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.sequence")
                .hasMessageContaining("9seq");
        Context quoted =
                new Context().with("persistence-unit", "baton-hibernate").with("table", "\"Locks\"");
        assertThatThrownBy(() -> factory().validate(quoted)).isInstanceOf(LockConfigurationException.class);
    }

    /** Item 6: {@code baton.jpa.table=order} used to deploy, and then every statement failed with a syntax error. */
    @Test
    void reservedWordsAreRejectedAtDeploymentForEveryKindOfName() {
        String[][] cases = {
            {"table", "order", "'order' is a reserved word of PostgreSQL, MariaDB and H2"},
            {"table", "Order", "is a reserved word"},
            {"table", "user.locks", "the schema part 'user', which is a reserved word of PostgreSQL and H2"},
            {"table", "app.select", "the name part 'select', which is a reserved word"},
            {"sequence", "value", "is a reserved word of MariaDB and H2"},
            {"sequence", "from.lock_tokens", "the schema part 'from'"},
            {"sequence", "app.offset", "the name part 'offset'"},
        };
        for (String[] c : cases) {
            Context context =
                    new Context().with("persistence-unit", "baton-hibernate").with(c[0], c[1]);
            assertThatThrownBy(() -> factory().validate(context))
                    .as("%s=%s", c[0], c[1])
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jpa." + c[0] + "='" + c[1] + "'")
                    .hasMessageContaining(c[2]);
        }
        // not reserved anywhere, although keywords somewhere: still fine
        factory()
                .validate(new Context()
                        .with("persistence-unit", "baton-hibernate")
                        .with("table", "app.locks")
                        .with("sequence", "app.sequence_numbers"));
    }

    @Test
    void theBuilderRejectsReservedWordsForEveryKindOfName() {
        EntityManagerFactory unused = null;
        JpaLockStore.Builder builder = JpaLockStore.builder(() -> unused);
        for (String name : new String[] {"order", "GROUP", "user.locks", "app.table"}) {
            assertThatThrownBy(() -> builder.table(name))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + name + "'")
                    .hasMessageContaining("reserved word");
        }
        for (String name : new String[] {"value", "select.tokens", "app.where"}) {
            assertThatThrownBy(() -> builder.sequence(name))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + name + "'")
                    .hasMessageContaining("reserved word");
        }
        builder.table("app.locks").sequence("app.lock_tokens");
    }

    @Test
    void badSchemaActionNamesKeyAndValue() {
        Context context =
                new Context().with("persistence-unit", "baton-hibernate").with("schema-action", "drop");
        assertThatThrownBy(() -> factory().validate(context))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.schema-action")
                .hasMessageContaining("drop");
    }

    @Test
    void statementTimeoutIsADurationAndBadOnesNameKeyAndValue() {
        for (String bad : new String[] {"soon", "0", "0ms", "-5s", "5 minutes", "400d", "PT0S"}) {
            Context context =
                    new Context().with("persistence-unit", "baton-hibernate").with("statement-timeout", bad);
            assertThatThrownBy(() -> factory().validate(context))
                    .as(bad)
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jpa.statement-timeout")
                    .hasMessageContaining(bad);
        }
        for (String[] good :
                new String[][] {{"750ms", "750"}, {"2s", "2000"}, {"1m", "60000"}, {"PT0.5S", "500"}, {"1500", "1500"}
                }) {
            Context context =
                    new Context().with("persistence-unit", "baton-hibernate").with("statement-timeout", good[0]);
            factory().validate(context);
            try (LockStore store = factory().create(context)) {
                assertThat(((JpaLockStore) store).statementTimeoutMillis())
                        .as(good[0])
                        .isEqualTo(Long.parseLong(good[1]));
            }
        }
        try (LockStore store = factory().create(new Context().with("persistence-unit", "baton-hibernate"))) {
            assertThat(((JpaLockStore) store).statementTimeoutMillis())
                    .as("the default")
                    .isEqualTo(5_000);
        }
    }

    @Test
    void purgeAfterBelowTheMarginIsRejectedNamingKeyValueAndMinimum() {
        Context tooShort =
                new Context().with("persistence-unit", "baton-hibernate").with("purge-after", "69s");
        assertThatThrownBy(() -> factory().validate(tooShort))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.purge-after='69s'")
                .hasMessageContaining("minimum of 70000 ms");
        Context longTimeout = new Context()
                .with("persistence-unit", "baton-hibernate")
                .with("statement-timeout", "1m")
                .with("purge-after", "10m");
        assertThatThrownBy(() -> factory().validate(longTimeout))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.purge-after='10m'")
                .hasMessageContaining("minimum of 620000 ms");
        for (String bad : new String[] {"soon", "0", "400d"}) {
            Context context =
                    new Context().with("persistence-unit", "baton-hibernate").with("purge-after", bad);
            assertThatThrownBy(() -> factory().validate(context))
                    .as(bad)
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jpa.purge-after='" + bad + "'");
        }
        Context intervalAlone =
                new Context().with("persistence-unit", "baton-hibernate").with("purge-interval", "1m");
        assertThatThrownBy(() -> factory().validate(intervalAlone))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.purge-interval='1m'")
                .hasMessageContaining("baton.jpa.purge-after");
        Context good = new Context().with("persistence-unit", "baton-hibernate").with("purge-after", "70s");
        factory().validate(good);
        try (LockStore store = factory().create(good)) {
            assertThat(((JpaLockStore) store).purgeAfterMillis()).isEqualTo(70_000);
            assertThat(((JpaLockStore) store).purgeIntervalMillis())
                    .as("half, at least 30 s")
                    .isEqualTo(35_000);
        }
        try (LockStore store = factory().create(new Context().with("persistence-unit", "baton-hibernate"))) {
            assertThat(((JpaLockStore) store).purgeAfterMillis())
                    .as("off by default")
                    .isZero();
        }
    }

    @Test
    void needsAPersistenceUnitOrAnEntityManagerFactoryBean() {
        assertThatThrownBy(() -> factory().validate(new Context()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.persistence-unit")
                .hasMessageContaining("EntityManagerFactory");
        assertThatThrownBy(() -> factory().validate(new Context().with("persistence-unit", " ")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.persistence-unit");
    }

    @Test
    void aDataSourceTogetherWithAPersistenceUnitNamesBothKeys() {
        Context context = new Context()
                .with("data-source", "java:comp/DefaultDataSource")
                .with("persistence-unit", "baton-hibernate");
        assertThatThrownBy(() -> factory().validate(context))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.data-source='java:comp/DefaultDataSource'")
                .hasMessageContaining("baton.jpa.persistence-unit='baton-hibernate'");
        assertThatThrownBy(() -> factory().validate(new Context().with("data-source", " ")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.data-source");
    }

    @Test
    void aDataSourceNameThatIsNotBoundFailsTheDeployment() {
        dev.baton.jpa.testing.TestJndi.install();
        try {
            dev.baton.jpa.testing.TestJndi.bind("java:comp/env/notADataSource", "text");
            assertThatThrownBy(() -> factory().validate(new Context().with("data-source", "jdbc/ordrs")))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jpa.data-source='jdbc/ordrs'")
                    .hasMessageContaining("nothing is bound");
            assertThatThrownBy(
                            () -> factory().validate(new Context().with("data-source", "java:comp/env/notADataSource")))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jpa.data-source='java:comp/env/notADataSource'")
                    .hasMessageContaining("java.lang.String, not a javax.sql.DataSource");
        } finally {
            dev.baton.jpa.testing.TestJndi.uninstall();
        }
    }

    @Test
    void withoutANamingContextTheDataSourceIsLookedUpAtTheFirstOperation() {
        Context context = new Context().with("data-source", "java:comp/DefaultDataSource");
        factory().validate(context);
        try (LockStore store = factory().create(context)) {
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jpa.data-source='java:comp/DefaultDataSource' could not be looked up");
        }
    }

    /**
     * A runtime's own threads (a leader election's stand-by, which may be the first to use the store) have no
     * {@code java:comp} on some servers (Open Liberty): the name is looked up when the store is created, on the
     * deploying thread, where it can be.
     */
    @Test
    void aDataSourceLookedUpWhereTheStoreIsCreatedServesThreadsWithoutANamingContext() {
        org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
        h2.setURL("jdbc:h2:mem:jndi-at-creation;DB_CLOSE_DELAY=-1");
        Context context =
                new Context().with("data-source", "java:comp/DefaultDataSource").with("schema-action", "create");
        LockStore store;
        dev.baton.jpa.testing.TestJndi.install();
        try {
            dev.baton.jpa.testing.TestJndi.bind("java:comp/DefaultDataSource", h2);
            factory().validate(context);
            store = factory().create(context);
        } finally {
            dev.baton.jpa.testing.TestJndi.uninstall();
        }
        try (store) {
            assertThat(store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000))
                            .isAcquired())
                    .as("acquired with no naming context left")
                    .isTrue();
        }
    }

    @Test
    void aPersistenceUnitThatDoesNotExistFailsTheDeployment() {
        assertThatThrownBy(() -> factory().validate(new Context().with("persistence-unit", "baton-hibernat")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.persistence-unit")
                .hasMessageContaining("baton-hibernat")
                .hasMessageContaining("baton-hibernate, baton-eclipselink");
    }

    @Test
    void aMissingJdbcDriverIsReportedAsSuch() {
        for (String unit : new String[] {"baton-hibernate", "baton-eclipselink"}) {
            try (LockStore store = JpaLockStore.builder(() -> Persistence.createEntityManagerFactory(
                            unit,
                            Map.of(
                                    "jakarta.persistence.jdbc.url",
                                    "jdbc:nosuchdb://127.0.0.1:1/x",
                                    "jakarta.persistence.jdbc.driver",
                                    "org.example.NoSuchDriver")))
                    .build()) {
                assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                        .as(unit)
                        .isInstanceOf(LockStoreDriverNotFoundException.class)
                        .hasMessageContaining("org.example.NoSuchDriver");
            }
        }
    }

    @Test
    void validSettingsPassAndCreateDoesNotConnect() {
        Context context = new Context()
                .with("persistence-unit", "baton-hibernate")
                .with("table", "app.locks")
                .with("sequence", "app.lock_tokens")
                .with("schema-action", "Validate");
        factory().validate(context);
        try (LockStore store = factory().create(context)) {
            assertThat(store).isInstanceOf(JpaLockStore.class);
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("app.locks")
                    .satisfies(e -> assertThat(e.getCause()).as("the cause").isNotNull());
        }
    }

    @Test
    void usesTheApplicationsEntityManagerFactoryBean() {
        Context context = new Context();
        EntityManagerFactory emf = dev.baton.jpa.testing.Backend.matrix().get(4).sharedFactory();
        context.beans.put(EntityManagerFactory.class, emf);
        factory().validate(context);
        try (LockStore store = factory().create(context.with("schema-action", "create"))) {
            assertThat(store.acquire(Acquisition.of(
                                    "factory:" + java.util.UUID.randomUUID(), JpaTestOwners.owner(), 1000))
                            .isAcquired())
                    .isTrue();
        }
        assertThat(emf.isOpen())
                .as("the application's factory is not closed by the store")
                .isTrue();
    }

    @Test
    void anUnknownModeNamesKeyAndValue() {
        Context context =
                new Context().with("persistence-unit", "baton-hibernate").with("mode", "advisary");
        assertThatThrownBy(() -> factory().validate(context))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.mode")
                .hasMessageContaining("advisary")
                .hasMessageContaining("table")
                .hasMessageContaining("advisory");
    }

    /** The store's lines that may carry a key (BATON-JPA-001's driver text, BATON-JPA-005's cause) use this form. */
    @Test
    void theStoreWritesKeysInItsLinesAsTheRuntimeSays() {
        for (KeyFormat form : KeyFormat.values()) {
            Context context = new Context().with("persistence-unit", "baton-hibernate");
            context.logKeys = form;
            try (LockStore store = factory().create(context)) {
                assertThat(((JpaLockStore) store).logKeys()).isEqualTo(form);
            }
        }
        assertThat(JpaLockStore.builder(() -> null).build().logKeys())
                .as("a store the application builds itself")
                .isEqualTo(KeyFormat.PLAIN);
    }

    @Test
    void theModeIsReadInAnyCaseAndTableIsTheDefault() {
        Context advisory =
                new Context().with("persistence-unit", "baton-hibernate").with("mode", " Advisory ");
        try (LockStore store = factory().create(advisory)) {
            assertThat(((JpaLockStore) store).mode()).isEqualTo(LockMode.ADVISORY);
            assertThat(store.capabilities()).containsExactly(dev.baton.spi.StoreCapability.ENDS_WITH_CONNECTION);
        }
        try (LockStore store = factory().create(new Context().with("persistence-unit", "baton-hibernate"))) {
            assertThat(((JpaLockStore) store).mode()).isEqualTo(LockMode.TABLE);
            assertThat(store.capabilities())
                    .contains(dev.baton.spi.StoreCapability.PERSISTENT)
                    .doesNotContain(dev.baton.spi.StoreCapability.ENDS_WITH_CONNECTION);
        }
    }

    @Test
    void advisoryModeOnAnH2FactoryFailsTheDeployment() {
        Context context = new Context().with("mode", "advisory");
        EntityManagerFactory h2 = new dev.baton.jpa.testing.Backend(
                        JpaDatabase.H2, dev.baton.jpa.testing.Provider.HIBERNATE)
                .sharedFactory();
        context.beans.put(EntityManagerFactory.class, h2);
        assertThatThrownBy(() -> factory().validate(context))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.jpa.mode")
                .hasMessageContaining("H2");
    }

    @Test
    void advisoryModeOnH2FailsEveryOperationWithAConfigurationError() {
        dev.baton.jpa.testing.Backend h2 =
                new dev.baton.jpa.testing.Backend(JpaDatabase.H2, dev.baton.jpa.testing.Provider.ECLIPSELINK);
        try (JpaLockStore store = h2.store(h2.sharedFactory(), h2.tableName("advh2"), LockMode.ADVISORY)) {
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                        .isInstanceOf(LockConfigurationException.class)
                        .hasMessageContaining("H2")
                        .hasMessageContaining("mode=table");
            }
        }
    }
}
