package dev.baton.impl.runtime;

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
 * Finds {@link LockStoreFactory}s with {@link ServiceLoader}, checks the stores the configuration names
 * ({@code baton.store}, {@code baton.<manager>.store}) and creates them, the fallback memory store
 * included: every store Baton makes is made here, by its factory, with a {@link ConfigStoreContext}. Which
 * manager uses which store (a configured one, an application bean, another manager's) the CDI layer decides.
 */
public final class StoreRegistry {

    private StoreRegistry() {}

    /**
     * @return the factories on the classpath by name
     */
    public static Map<String, LockStoreFactory> factories() {
        Map<String, LockStoreFactory> factories = new TreeMap<>();
        load(factories, StoreRegistry.class.getClassLoader());
        // The thread's context class loader finds store jars that Baton's own loader cannot see (Baton in an EAR's
        // lib, a store in a web module). It may also be another application's, or a server-wide one (TomEE sets
        // one on JAX-RS request threads): through it ServiceLoader finds that loader's copies of the factories,
        // which are not of this application's SPI. Such a loader is not asked.
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (sharesOurSpi(context)) {
            load(factories, context);
        }
        return factories;
    }

    /**
     * @param loader a class loader, or null
     * @return whether it resolves {@link LockStoreFactory} to the very class Baton's own loader resolved
     */
    static boolean sharesOurSpi(ClassLoader loader) {
        if (loader == null) {
            return false;
        }
        try {
            return Class.forName(LockStoreFactory.class.getName(), false, loader) == LockStoreFactory.class;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static void load(Map<String, LockStoreFactory> into, ClassLoader loader) {
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
            // Only a store a manager names itself is made for it: a named manager that inherits baton.store shares
            // the default manager's store instance.
            if (config.ownStore(settings.name()).isEmpty()) {
                continue;
            }
            String name = config.ownStore(settings.name()).get();
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
     * Creates a configured store.
     *
     * @param config the configuration
     * @param manager the manager whose settings the store reads ({@code baton.<manager>.<store>.*}, else
     *     {@code baton.<store>.*}); empty for the default
     * @param store the store's name
     * @param beans the application's beans
     * @return the store
     * @throws LockConfigurationException if no factory has that name
     */
    public static LockStore create(BatonConfig config, String manager, String store, BeanLookup beans) {
        LockStoreFactory factory = factories().get(store);
        if (factory == null) {
            throw new LockConfigurationException(BatonConfig.key(manager, "store") + ": unknown store '" + store + "'");
        }
        return factory.create(new ConfigStoreContext(config, manager, store, beans));
    }

    /**
     * Creates the in-memory store, the default manager's when nothing is configured and the application has no
     * {@code LockStore} bean: made by its factory like any configured store, with a real context.
     *
     * @param config the configuration
     * @param beans the application's beans
     * @return the store
     */
    public static LockStore createUnconfiguredMemory(BatonConfig config, BeanLookup beans) {
        return create(config, "", MemoryLockStoreFactory.NAME, beans);
    }
}
