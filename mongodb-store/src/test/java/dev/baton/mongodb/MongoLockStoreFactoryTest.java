package dev.baton.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/** {@code baton.store=mongodb}: found by name, settings checked at deployment without connecting, each bad one named. */
class MongoLockStoreFactoryTest {

    /** Settings from a map: what the runtime hands a factory. */
    record Settings(Map<String, String> values) implements StoreContext {
        Settings() {
            this(new HashMap<>());
        }

        Settings with(String name, String value) {
            values.put(name, value);
            return this;
        }

        @Override
        public String managerName() {
            return "";
        }

        @Override
        public Optional<String> setting(String name) {
            return Optional.ofNullable(values.get(name));
        }

        @Override
        public String settingKey(String name) {
            return "baton.mongodb." + name;
        }

        @Override
        public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
            return Optional.empty();
        }
    }

    private static LockStoreFactory factory() {
        return ServiceLoader.load(LockStoreFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("mongodb"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aStoreFromSettingsTakesLocksInItsCollection() {
        Settings settings = new Settings()
                .with("url", TestMongo.url())
                .with("database", TestMongo.DATABASE)
                .with("collection", "factory")
                .with("operation-timeout", "PT3S");
        factory().validate(settings);
        String key = "factory:" + UUID.randomUUID();
        try (LockStore store = factory().create(settings)) {
            assertThat(store).isInstanceOf(MongoLockStore.class);
            assertThat(((MongoLockStore) store).operationTimeoutMillis()).isEqualTo(3_000);
            assertThat(store.acquire(Acquisition.of(key, "owner", 30_000)).isAcquired())
                    .isTrue();
            assertThat(TestMongo.collection("factory")
                            .find(new Document("_id", key))
                            .first())
                    .as("the key's document, in the configured database and collection")
                    .isNotNull()
                    .containsEntry("o", "owner");
            assertThat(store.release(key, "owner")).isTrue();
        }
        assertThat(factory().settingNames())
                .hasValueSatisfying(names -> assertThat(names)
                        .containsExactlyInAnyOrder("url", "database", "collection", "operation-timeout"));
    }

    @Test
    void theDefaultsAreTheConnectionStringsDatabaseElseBatonAndBatonLocks() {
        try (MongoLockStore store = (MongoLockStore) factory().create(new Settings().with("url", "mongodb://db:1"))) {
            assertThat(store.database()).isEqualTo("baton");
            assertThat(store.collection()).isEqualTo("baton_locks");
            assertThat(store.operationTimeoutMillis()).isEqualTo(5_000);
        }
        try (MongoLockStore store =
                (MongoLockStore) factory().create(new Settings().with("url", "mongodb://db:1/orders"))) {
            assertThat(store.database()).isEqualTo("orders");
        }
        try (MongoLockStore store = (MongoLockStore) factory()
                .create(new Settings()
                        .with("url", "mongodb://db:1/orders")
                        .with("database", "locks")
                        .with("operation-timeout", "750ms"))) {
            assertThat(store.database()).isEqualTo("locks");
            assertThat(store.operationTimeoutMillis()).isEqualTo(750);
        }
    }

    @Test
    void eachBadSettingIsNamedAtDeploymentWithoutConnecting() {
        assertThatThrownBy(() -> factory().validate(new Settings()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("set baton.mongodb.url");
        assertThatThrownBy(() -> factory().validate(new Settings().with("url", " ")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.url")
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> factory().validate(new Settings().with("url", "http://user:secret@db:1")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.url")
                .hasMessageContaining("not a MongoDB connection string")
                .hasMessageNotContaining("secret");
        Settings unreachable = new Settings().with("url", "mongodb://127.0.0.1:1");
        assertThatThrownBy(() -> factory().validate(unreachable.with("database", "no/slash")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.database")
                .hasMessageContaining("not a valid MongoDB database name");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("url", "mongodb://127.0.0.1:1")
                                .with("collection", "a$b")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.collection")
                .hasMessageContaining("not a valid MongoDB collection name");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("url", "mongodb://127.0.0.1:1")
                                .with("collection", "system.x")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.collection");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("url", "mongodb://127.0.0.1:1")
                                .with("operation-timeout", "soon")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.operation-timeout='soon' is not a duration");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("url", "mongodb://127.0.0.1:1")
                                .with("operation-timeout", "0")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.mongodb.operation-timeout='0' must be from 1 ms to 365 days");
    }

    @Test
    void theBuilderNamesTheBadSetting() {
        assertThatThrownBy(() -> MongoLockStore.builder("mongodb://db:1").collection(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("collection");
        assertThatThrownBy(() -> MongoLockStore.builder("mongodb://db:1").database("a.b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("database 'a.b'");
        assertThatThrownBy(() -> MongoLockStore.builder("mongodb://db:1").operationTimeout(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operationTimeout");
        assertThatThrownBy(() -> MongoLockStore.builder("redis://db:1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a MongoDB connection string");
    }
}
