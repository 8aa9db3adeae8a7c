package dev.baton.tck.runtime.security;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.tck.runtime.support.LockTable;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/** The deployment's store (an application {@code LockStore} bean): in memory, counting the acquisitions asked. */
@ApplicationScoped
public class CountingStore implements LockStore {

    private final LockTable locks = new LockTable();
    private final AtomicInteger acquisitions = new AtomicInteger();

    /** @return how many times {@link #acquire} was called */
    public int acquisitions() {
        return acquisitions.get();
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        acquisitions.incrementAndGet();
        return locks.acquire(acquisition);
    }

    @Override
    public boolean renew(Renewal renewal) {
        return locks.renew(renewal);
    }

    @Override
    public boolean release(String key, String owner) {
        return locks.release(key, owner);
    }
}
