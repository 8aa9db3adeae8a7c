package dev.baton.jpa.internal.advisory;

import dev.baton.jpa.LockMode;
import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.LockOperations;
import dev.baton.jpa.internal.StoreConnector;
import dev.baton.jpa.internal.StoreSettings;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Advisory mode: each held key a database session lock of this instance ({@link AdvisoryLocks}, created once
 * the store connected: schema checked, database known). No turns, no inspection, no notifications; each
 * operation runs with the caller's JTA transaction suspended (on a data source).
 */
public final class AdvisoryMode implements LockOperations {

    /** Locks end with the instance's connections; only tokens outlive it. */
    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(StoreCapability.ENDS_WITH_CONNECTION);

    private final StoreConnector connector;
    private final StoreSettings settings;
    private final ReentrantLock setup = new ReentrantLock();
    private volatile AdvisoryLocks locks;

    /**
     * @param connector the store's connector
     * @param settings the store's settings
     */
    public AdvisoryMode(StoreConnector connector, StoreSettings settings) {
        this.connector = connector;
        this.settings = settings;
    }

    @Override
    public LockMode mode() {
        return LockMode.ADVISORY;
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn) {
        // no turns in this mode
        return connector.outside(() -> locks().acquire(key, owner, ttlMillis, maxWaitMillis));
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return connector.outside(() -> locks().renew(key, owner, ttlMillis, Math.max(1, maxWaitMillis)));
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        return connector.outside(() -> renewEach(leases, ttlMillis, maxWaitMillis));
    }

    /** The time left of the call bounds each renewal in turn. */
    private Set<Lease> renewEach(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        AdvisoryLocks a = locks();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        Set<Lease> renewed = new HashSet<>();
        for (Lease lease : leases) {
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            if (a.renew(lease.key(), lease.owner(), ttlMillis, left)) {
                renewed.add(lease);
            }
        }
        return renewed;
    }

    @Override
    public boolean release(String key, String owner) {
        return connector.outside(() -> locks().release(key, owner));
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        return false; // no turns in this mode
    }

    @Override
    public Optional<Holder> inspect(String key) {
        throw new UnsupportedOperationException("The advisory mode does not inspect locks");
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        throw new UnsupportedOperationException("The advisory mode does not notify releases");
    }

    @Override
    public void requireFencedWrites() {
        throw new IllegalStateException("Fenced writes check the lock table, which the advisory mode does not write:"
                + " fence with the token itself (the fence column of docs/user-guide.md, Fencing tokens)");
    }

    /** The advisory locks of this instance, once the store connected (schema checked, database known). */
    private AdvisoryLocks locks() {
        connector.requireOpen();
        AdvisoryLocks a = locks;
        if (a != null) {
            return a;
        }
        Dialect d = connector.dialect();
        setup.lock();
        try {
            if (locks == null) {
                locks = new AdvisoryLocks(
                        connector::dedicatedConnection,
                        d.database(),
                        settings.table(),
                        settings.sequence(),
                        settings.statementTimeoutMillis(),
                        settings.logKeys());
            }
            return locks;
        } finally {
            setup.unlock();
        }
    }

    @Override
    public void close() {
        AdvisoryLocks a = locks;
        if (a != null) {
            a.close(); // frees its locks and gives its connections back before the factory may close
        }
    }
}
