package com.example.lockstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import dev.baton.tck.DeclaredSettings;
import java.lang.annotation.Annotation;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * What the store contract suite does not check: that Baton finds the factory by its name, that a wrong setting
 * fails with a message naming the key, and that the settings it reads are the ones it declares.
 */
class MapLockStoreFactoryTest {

    // tag::service-loader[]
    @Test
    void theServiceLoaderFindsTheFactoryByItsName() {
        assertThat(ServiceLoader.load(LockStoreFactory.class).stream().map(ServiceLoader.Provider::get))
                .filteredOn(factory -> factory.name().equals("map"))
                .singleElement()
                .isInstanceOf(MapLockStoreFactory.class);
    }

    @Test
    void everySettingTheFactoryReadsIsDeclared() {
        MapLockStoreFactory factory = new MapLockStoreFactory();

        assertThat(factory.settingNames().orElseThrow())
                .containsAll(DeclaredSettings.askedByValidate(factory, Map.of("backend", "orders")));
    }
    // end::service-loader[]

    @Test
    void aBadBackendNameFailsNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> new MapLockStoreFactory().validate(context(Map.of("backend", "Orders!"))))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.map.backend='Orders!'");
    }

    @Test
    void storesOnOneBackendShareTheirLocksAndStoresOnAnotherDoNot() {
        MapLockStoreFactory factory = new MapLockStoreFactory();
        try (LockStore first = factory.create(context(Map.of("backend", "shared")));
                LockStore second = factory.create(context(Map.of("backend", "shared")));
                LockStore other = factory.create(context(Map.of("backend", "other")))) {
            assertThat(first.acquire(Acquisition.of("k", "owner-1", 60_000)).isAcquired())
                    .isTrue();

            assertThat(second.acquire(Acquisition.of("k", "owner-2", 60_000)).isAcquired())
                    .isFalse();
            assertThat(other.acquire(Acquisition.of("k", "owner-2", 60_000)).isAcquired())
                    .isTrue();
        }
    }

    private static StoreContext context(Map<String, String> settings) {
        return new StoreContext() {
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
                return "baton.map." + name;
            }

            @Override
            public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
                return Optional.empty();
            }
        };
    }
}
