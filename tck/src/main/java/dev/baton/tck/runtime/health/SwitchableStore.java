package dev.baton.tck.runtime.health;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.tck.runtime.support.LockTable;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The deployment's store (an application {@code LockStore} bean): in memory, with a switch that makes every
 * call fail with {@link LockStoreException}, as a store does whose backend cannot be reached.
 */
@ApplicationScoped
public class SwitchableStore implements LockStore {

    private final LockTable locks = new LockTable();
    private volatile boolean unreachable;

    /** @param down whether every call fails from now on */
    public void unreachable(boolean down) {
        unreachable = down;
    }

    private void requireReachable() {
        if (unreachable) {
            throw new LockStoreException("the test's store is switched off (unreachable)");
        }
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        requireReachable();
        return locks.acquire(acquisition);
    }

    @Override
    public boolean renew(Renewal renewal) {
        requireReachable();
        return locks.renew(renewal);
    }

    @Override
    public boolean release(String key, String owner) {
        requireReachable();
        return locks.release(key, owner);
    }
}
