package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import dev.baton.zookeeper.testing.TestZooKeeper;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code baton.store=zookeeper}: found by name, settings checked at deployment without connecting, each bad one named. */
class ZooKeeperLockStoreFactoryTest {

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
            return "baton.zookeeper." + name;
        }

        @Override
        public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
            return Optional.empty();
        }
    }

    private static LockStoreFactory factory() {
        return ServiceLoader.load(LockStoreFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("zookeeper"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aStoreFromSettingsTakesLocksOnTheServer() {
        Settings settings = new Settings()
                .with("connect", TestZooKeeper.connect())
                .with("root", "/factory")
                .with("session-timeout", "6s")
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
                        .containsExactlyInAnyOrder("connect", "root", "session-timeout", "operation-timeout"));
    }

    @Test
    void eachBadSettingIsNamedAtDeploymentWithoutConnecting() {
        assertThatThrownBy(() -> factory().validate(new Settings()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("set baton.zookeeper.connect");
        assertThatThrownBy(() -> factory().validate(new Settings().with("connect", " ")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.zookeeper.connect")
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> factory().validate(new Settings().with("connect", "127.0.0.1:1/bad/")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.zookeeper.connect")
                .hasMessageContaining("not a ZooKeeper connect string");
        Settings unreachable = new Settings().with("connect", "127.0.0.1:1");
        assertThatThrownBy(() -> factory().validate(unreachable.with("root", "baton")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.zookeeper.root")
                .hasMessageContaining("not a ZooKeeper path");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings().with("connect", "127.0.0.1:1").with("session-timeout", "soon")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.zookeeper.session-timeout='soon' is not a duration");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings().with("connect", "127.0.0.1:1").with("operation-timeout", "0")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.zookeeper.operation-timeout='0' must be from 1 ms to 365 days");
        assertThatThrownBy(() -> factory()
                        .validate(new Settings().with("connect", "127.0.0.1:1").with("session-timeout", "720h")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.zookeeper.session-timeout");
    }
}
