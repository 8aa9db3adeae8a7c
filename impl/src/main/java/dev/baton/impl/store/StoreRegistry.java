package dev.baton.impl.store;

import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.store.memory.MemoryLockStoreFactory;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds {@link LockStoreFactory}s with {@link ServiceLoader} and creates each manager's store: the
 * configured one ({@code baton.store}), else an application {@code LockStore} bean, else memory.
 */
public final class StoreRegistry {

    private StoreRegistry() {
    }

    /**
     * @return the factories on the classpath by name
     */
    public static Map<String, LockStoreFactory> factories() {
        Map<String, LockStoreFactory> factories = new TreeMap<>();
        load(factories, Thread.currentThread().getContextClassLoader());
        load(factories, StoreRegistry.class.getClassLoader());
        return factories;
    }

    private static void load(Map<String, LockStoreFactory> into, ClassLoader loader) {
        if (loader == null) {
            return;
        }
        try {
            for (LockStoreFactory factory : ServiceLoader.load(LockStoreFactory.class, loader)) {
                into.putIfAbsent(factory.name(), factory);
            }
        } catch (ServiceConfigurationError e) {
            throw new LockConfigurationException("A lock store could not be loaded: " + e.getMessage(), e);
        }
    }

    /**
     * Checks every manager's store setting without connecting.
     *
     * @param config the configuration
     * @param beans the application's beans
     * @throws LockConfigurationException listing the problems
     */
    public static void validate(BatonConfig config, BeanLookup beans) {
        Map<String, LockStoreFactory> factories = factories();
        List<String> problems = new ArrayList<>();
        for (ManagerSettings settings : config.managers().values()) {
            if (settings.store().isEmpty()) {
                continue;
            }
            String name = settings.store().get();
            LockStoreFactory factory = factories.get(name);
            if (factory == null) {
                problems.add(BatonConfig.key(settings.name(), "store") + ": unknown store '" + name + "' (available: "
                        + String.join(", ", factories.keySet()) + "; add the store's jar to the application)");
                continue;
            }
            try {
                factory.validate(new ConfigStoreContext(config, settings.name(), name, beans));
            } catch (LockConfigurationException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new LockConfigurationException(String.join("; ", problems));
        }
    }

    /**
     * Creates a manager's store from configuration; null when none is configured (the caller then looks
     * for a bean, else uses memory).
     *
     * @param config the configuration
     * @param settings the manager
     * @param beans the application's beans
     * @return the store, or null
     */
    public static LockStore createConfigured(BatonConfig config, ManagerSettings settings, BeanLookup beans) {
        if (settings.store().isEmpty()) {
            return null;
        }
        String name = settings.store().get();
        LockStoreFactory factory = factories().get(name);
        if (factory == null) {
            throw new LockConfigurationException(BatonConfig.key(settings.name(), "store") + ": unknown store '" + name + "'");
        }
        return factory.create(new ConfigStoreContext(config, settings.name(), name, beans));
    }

    /**
     * @return the default store when nothing else is configured
     */
    public static LockStore createDefault() {
        return new MemoryLockStoreFactory().create(null);
    }
}
