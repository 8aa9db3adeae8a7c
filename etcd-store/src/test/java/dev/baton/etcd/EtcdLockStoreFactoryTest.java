package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.etcd.testing.TestEtcd;
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
import org.junit.jupiter.api.Test;

/** {@code baton.store=etcd}: found by name, settings checked at deployment without connecting, each bad one named. */
class EtcdLockStoreFactoryTest {

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
            return "baton.etcd." + name;
        }

        @Override
        public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
            return Optional.empty();
        }
    }

    private static LockStoreFactory factory() {
        return ServiceLoader.load(LockStoreFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("etcd"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aStoreFromSettingsTakesLocksOnTheServer() {
        Settings settings = new Settings()
                .with("endpoints", TestEtcd.endpoint())
                .with("root", "/factory")
                .with("lease-ttl", "6s")
                .with("operation-timeout", "PT3S");
        factory().validate(settings);
        try (LockStore store = factory().create(settings)) {
            String key = "factory:" + UUID.randomUUID();
            assertThat(store.acquire(Acquisition.of(key, "owner", 30_000)).isAcquired())
                    .isTrue();
            assertThat(store.release(key, "owner")).isTrue();
        }
        assertThat(factory().settingNames())
                .hasValueSatisfying(names -> assertThat(names)
                        .containsExactlyInAnyOrder("endpoints", "root", "lease-ttl", "operation-timeout"));
    }

    @Test
    void eachBadSettingIsNamedAtDeploymentWithoutConnecting() {
        assertThatThrownBy(() -> factory().validate(new Settings()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("set baton.etcd.endpoints");
        assertThatThrownBy(() -> factory().validate(new Settings().with("endpoints", " ")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("set baton.etcd.endpoints");
        assertThatThrownBy(() -> factory().validate(new Settings().with("endpoints", "127.0.0.1:2379")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.etcd.endpoints")
                .hasMessageContaining("not an etcd endpoint URL");
        assertThatThrownBy(() ->
                        factory().validate(new Settings().with("endpoints", "http://127.0.0.1:1,ftp://127.0.0.1:2")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("ftp://127.0.0.1:2");
        assertThatThrownBy(() -> factory().validate(new Settings().with("endpoints", "https://127.0.0.1:2379")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("does not speak TLS yet");
        Settings unreachable = new Settings().with("endpoints", "http://127.0.0.1:1");
        assertThatThrownBy(() -> factory().validate(unreachable.with("root", "baton")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.etcd.root")
                .hasMessageContaining("must start with '/'");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("endpoints", "http://127.0.0.1:1")
                                .with("lease-ttl", "soon")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.etcd.lease-ttl='soon' is not a duration");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("endpoints", "http://127.0.0.1:1")
                                .with("lease-ttl", "1500ms")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.etcd.lease-ttl")
                .hasMessageContaining("whole seconds");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings()
                                .with("endpoints", "http://127.0.0.1:1")
                                .with("operation-timeout", "0")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.etcd.operation-timeout='0' must be from 1 ms to 365 days");
    }
}
