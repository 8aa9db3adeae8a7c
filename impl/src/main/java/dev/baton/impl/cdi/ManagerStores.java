package dev.baton.impl.cdi;

import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.runtime.SharedStore;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.spi.LockStore;
import java.util.HashMap;
import java.util.Map;

/**
 * The lock managers' stores, created at the first use of a manager from the deployment's
 * {@link StorePlan}: one store per source, shared by every manager with that source (a named manager
 * without a store of its own uses the default manager's very store).
 */
final class ManagerStores {

    private final StorePlan plan;
    private final BatonConfig config;
    private final CdiBeanLookup beans;
    private final Map<StorePlan.Source, SharedStore> stores = new HashMap<>();

    ManagerStores(StorePlan plan, BatonConfig config, CdiBeanLookup beans) {
        this.plan = plan;
        this.config = config;
        this.beans = beans;
    }

    /**
     * @param manager a declared manager
     * @return whether it has a store (only the default manager may have none)
     */
    boolean hasStore(String manager) {
        return !(plan.source(manager) instanceof StorePlan.None);
    }

    /**
     * @param manager a declared manager
     * @return why it has no store
     */
    LockConfigurationException noStore(String manager) {
        if (plan.source(manager) instanceof StorePlan.None none) {
            return new LockConfigurationException(none.reason());
        }
        throw new IllegalStateException("Lock manager '" + manager + "' has a store");
    }

    /**
     * Opens a manager's store for its engine, creating it if no other manager has yet.
     *
     * @param manager a declared manager
     * @return the engine's handle on the store: closing it closes the store once no engine uses it any more
     *     (never an application's bean)
     * @throws LockConfigurationException if the manager has no store
     */
    synchronized LockStore open(String manager) {
        StorePlan.Source source = plan.source(manager);
        SharedStore shared = stores.get(source);
        if (shared == null || shared.closed()) {
            shared = create(manager, source);
            stores.put(source, shared);
        }
        return shared.handle();
    }

    /**
     * @param manager a declared manager
     * @param store its store
     * @return for the log: the store, and whose it is when shared
     */
    String describe(String manager, LockStore store) {
        return plan.sharesDefault(manager) ? store + " (the default manager's)" : store.toString();
    }

    private SharedStore create(String manager, StorePlan.Source source) {
        if (source instanceof StorePlan.Configured configured) {
            return new SharedStore(StoreRegistry.create(config, configured.manager(), configured.store(), beans), true);
        }
        if (source instanceof StorePlan.ApplicationBean bean) {
            return new SharedStore(beans.reference(bean.bean(), LockStore.class), false);
        }
        if (source instanceof StorePlan.UnconfiguredMemory) {
            return new SharedStore(StoreRegistry.createUnconfiguredMemory(config, beans), true);
        }
        throw noStore(manager);
    }
}
