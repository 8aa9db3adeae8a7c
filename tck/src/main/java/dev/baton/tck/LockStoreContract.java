package dev.baton.tck;

import dev.baton.spi.LockStore;

/**
 * The store contract suite. A store author extends it with one factory method.
 * (Skeleton: the rules are added by the TCK issue.)
 */
public abstract class LockStoreContract {

    /**
     * Creates a new store instance. Each call must return a new instance on the <em>same</em> backend,
     * as an application restart would; the suite closes every instance it creates.
     *
     * @return a new store
     */
    protected abstract LockStore createStore();
}
