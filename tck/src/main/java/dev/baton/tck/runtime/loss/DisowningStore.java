package dev.baton.tck.runtime.loss;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.tck.runtime.support.LockTable;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The deployment's store (an application {@code LockStore} bean): in memory, with a switch that makes it
 * answer every renewal with "not yours any more", as a store does when a holder's lease ran out and
 * another instance took the key.
 */
@ApplicationScoped
public class DisowningStore implements LockStore {

    private final LockTable locks = new LockTable();
    private volatile boolean disowning;

    /** @param on whether every renewal is answered "not yours any more" from now on */
    public void disown(boolean on) {
        disowning = on;
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        return locks.acquire(acquisition);
    }

    @Override
    public boolean renew(Renewal renewal) {
        return !disowning && locks.renew(renewal);
    }

    @Override
    public boolean release(String key, String owner) {
        return locks.release(key, owner);
    }
}
