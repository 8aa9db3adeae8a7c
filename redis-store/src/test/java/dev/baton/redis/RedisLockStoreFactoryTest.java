package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.LockStoreException;
import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import dev.baton.tck.runtime.launch.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.lang.annotation.Annotation;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code baton.store=redis}: found by name, settings checked at deployment without connecting, a missing client named. */
class RedisLockStoreFactoryTest {

    /** Settings and beans from maps: what the runtime hands a factory. */
    record Settings(Map<String, String> values, Map<Class<?>, Object> beans) implements StoreContext {
        Settings() {
            this(new HashMap<>(), new HashMap<>());
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
            return "baton.redis." + name;
        }

        @Override
        public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
            return Optional.ofNullable(beans.get(type)).map(type::cast);
        }
    }

    /**
     * Loads the store's own classes itself and refuses every Lettuce class: an application that excluded
     * the client. Everything else (the SPI, the JDK) comes from the test's loader.
     */
    static final class WithoutLettuce extends URLClassLoader {
        WithoutLettuce() {
            super(
                    new URL[] {
                        RedisLockStore.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                    },
                    RedisLockStoreFactoryTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.lettuce.")) {
                throw new ClassNotFoundException(name + " (hidden by the test)");
            }
            if (!name.startsWith("dev.baton.redis.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }
    }

    private static LockStoreFactory factory(ClassLoader loader) {
        return ServiceLoader.load(LockStoreFactory.class, loader).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("redis"))
                .findFirst()
                .orElseThrow();
    }

    private static LockStoreFactory factory() {
        return factory(RedisLockStoreFactoryTest.class.getClassLoader());
    }

    /**
     * @param url the server
     * @param more further settings
     * @return a store created by {@code baton.store=redis} with key prefix {@code eviction:}
     */
    static RedisLockStore store(String url, Map<String, String> more) {
        Settings settings = new Settings().with("url", url).with("key-prefix", "eviction:");
        more.forEach(settings::with);
        factory().validate(settings);
        return (RedisLockStore) factory().create(settings);
    }

    @Test
    void isFoundByName() {
        assertThat(factory().name()).isEqualTo("redis");
    }

    @Test
    void withoutLettuceTheDeploymentFailsNamingTheArtifactToAdd() throws Exception {
        try (WithoutLettuce loader = new WithoutLettuce()) {
            LockStoreFactory hidden = factory(loader);
            assertThat(hidden.getClass().getClassLoader())
                    .as("the factory comes from the loader without Lettuce")
                    .isSameAs(loader);
            Settings settings = new Settings().with("url", "redis://127.0.0.1:6379");
            for (Runnable call : new Runnable[] {() -> hidden.validate(settings), () -> hidden.create(settings)}) {
                assertThatThrownBy(call::run)
                        .isInstanceOf(LockStoreDriverNotFoundException.class)
                        .hasMessageContaining("'redis'")
                        .hasMessageContaining("io.lettuce:lettuce-core")
                        .satisfies(e -> assertThat(e.getCause()).isInstanceOf(ClassNotFoundException.class));
            }
        }
        factory().validate(new Settings().with("url", "redis://127.0.0.1:6379")); // the same settings, with Lettuce
    }

    @Test
    void badUrlsNameKeyAndValueButNeverThePassword() {
        String[][] cases = {
            {"http://127.0.0.1:6379", "is not a Redis URL"},
            {"127.0.0.1:6379", "is not a Redis URL"},
            {"redis://", "redis://"},
            {"redis://:s3cret@127.0.0.1:6379/x", "not a valid Redis URL"},
            {" ", "empty"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> factory().validate(new Settings().with("url", c[0])))
                    .as(c[0])
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.redis.url")
                    .hasMessageContaining(c[1])
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret"));
        }
    }

    @Test
    void goodUrlsPassWithTlsPasswordAndDatabase() {
        for (String url : new String[] {
            "redis://127.0.0.1",
            "redis://127.0.0.1:6380/3",
            "rediss://localhost:6379",
            "redis://:pw@127.0.0.1:6379/1",
            "redis://user:pw@127.0.0.1:6379",
            "REDIS://127.0.0.1"
        }) {
            factory().validate(new Settings().with("url", url));
        }
        RedisURI uri = RedisURI.create("rediss://user:pw@localhost:6390/2");
        assertThat(uri.isSsl()).isTrue();
        assertThat(uri.getDatabase()).isEqualTo(2);
    }

    @Test
    void otherSettingsNameKeyAndValue() {
        String[][] cases = {
            {"command-timeout", "soon", "not a duration"},
            {"command-timeout", "0ms", "from 1 ms to 365 days"},
            {"command-timeout", "400d", "from 1 ms to 365 days"},
            {"key-prefix", "", "must not be empty"},
            {"key-prefix", "x".repeat(201), "at most 200"},
            {"key-prefix", "a\uD800", "lone high surrogate"},
            {"cluster", "yes", "must be true or false"},
            {"allow-eviction", "sometimes", "must be true or false"},
        };
        for (String[] c : cases) {
            Settings settings = new Settings().with("url", "redis://127.0.0.1").with(c[0], c[1]);
            assertThatThrownBy(() -> factory().validate(settings))
                    .as("%s=%s", c[0], c[1])
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.redis." + c[0])
                    .hasMessageContaining(c[2]);
        }
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("url", "redis://127.0.0.1/2")
                                .with("cluster", "true")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("only database 0");
    }

    @Test
    void needsAUrlOrAClientBean() {
        assertThatThrownBy(() -> factory().validate(new Settings()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.redis.url")
                .hasMessageContaining("RedisClient");
    }

    @Test
    void settingsReachTheStoreAndCreateDoesNotConnect() {
        Settings settings = new Settings()
                .with("url", "redis://127.0.0.1:" + FreePorts.pick())
                .with("command-timeout", "750ms")
                .with("key-prefix", "app:locks:");
        factory().validate(settings);
        try (LockStore store = factory().create(settings)) {
            RedisLockStore redis = (RedisLockStore) store;
            assertThat(redis.commandTimeoutMillis()).isEqualTo(750);
            assertThat(redis.keyPrefix()).isEqualTo("app:locks:");
            // nothing listens on that port: the first operation is where the store finds out
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", "owner-1", 1000)))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("127.0.0.1")
                    .satisfies(e -> assertThat(e.getCause()).isNotNull());
        }
    }

    @Test
    void usesTheApplicationsRedisClientBeanAndLeavesItOpen() {
        RedisClient client = RedisClient.create(TestRedis.url());
        try {
            Settings settings = new Settings().with("key-prefix", TestRedis.RUN_PREFIX + "bean:");
            settings.beans.put(RedisClient.class, client);
            factory().validate(settings);
            String key = "factory:" + UUID.randomUUID();
            try (LockStore store = factory().create(settings)) {
                assertThat(store.acquire(Acquisition.of(key, "owner-1", 1000)).isAcquired())
                        .isTrue();
            }
            try (LockStore again = factory().create(settings)) {
                assertThat(again.acquire(Acquisition.of(key, "owner-2", 1000)).isAcquired())
                        .as("the client still works after a store" + " closed")
                        .isFalse();
            }
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
