package dev.baton.impl.runtime;

import dev.baton.impl.config.BatonConfig;
import dev.baton.spi.KeyFormat;
import dev.baton.spi.StoreContext;
import java.lang.annotation.Annotation;
import java.util.Optional;

/**
 * A {@link StoreContext} over Baton's configuration: store {@code s} of manager {@code m} reads setting
 * {@code x} from {@code baton.m.s.x}, else {@code baton.s.x}.
 */
final class ConfigStoreContext implements StoreContext {

    private final BatonConfig config;
    private final String manager;
    private final String store;
    private final BeanLookup beans;

    ConfigStoreContext(BatonConfig config, String manager, String store, BeanLookup beans) {
        this.config = config;
        this.manager = manager;
        this.store = store;
        this.beans = beans;
    }

    @Override
    public String managerName() {
        return manager;
    }

    @Override
    public Optional<String> setting(String name) {
        Optional<String> own =
                manager.isEmpty() ? Optional.empty() : config.value(BatonConfig.key(manager, store + "." + name));
        return own.isPresent() ? own : config.value(BatonConfig.key("", store + "." + name));
    }

    @Override
    public String settingKey(String name) {
        String own = BatonConfig.key(manager, store + "." + name);
        if (!manager.isEmpty() && config.value(own).isPresent()) {
            return own;
        }
        return BatonConfig.key("", store + "." + name);
    }

    @Override
    public KeyFormat logKeys() {
        return config.logKeys();
    }

    @Override
    public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
        return beans.bean(type, qualifiers);
    }
}
