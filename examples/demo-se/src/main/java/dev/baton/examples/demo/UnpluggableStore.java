package dev.baton.examples.demo;

import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

/**
 * The store of the demo's "flaky" lock manager: a memory store whose network cable the demo can pull,
 * to show what a holder sees when its store becomes unreachable.
 */
@ApplicationScoped
@Named("flaky")
public class UnpluggableStore implements LockStore {

    private final MemoryLockStore store = new MemoryLockStore();
    private volatile boolean unplugged;

    void unplug() {
        unplugged = true;
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        check();
        return store.acquire(acquisition);
    }

    @Override
    public boolean renew(Renewal renewal) {
        check();
        return store.renew(renewal);
    }

    @Override
    public boolean release(String key, String owner) {
        check();
        return store.release(key, owner);
    }

    private void check() {
        if (unplugged) {
            throw new LockStoreException(
                    "store unreachable", new java.net.NoRouteToHostException("cable pulled (demo)"));
        }
    }

    @Override
    public String toString() {
        return "unpluggable memory";
    }
}
