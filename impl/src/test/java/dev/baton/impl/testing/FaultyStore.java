package dev.baton.impl.testing;

import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A real {@link MemoryLockStore} with switchable faults, to show how the runtime reacts to a store that
 * goes down or disowns a lock. Everything not switched off is the real store.
 */
public final class FaultyStore implements LockStore {

    private final MemoryLockStore delegate;
    public volatile boolean down;
    public volatile boolean renewAnswersFalse;
    /** Thrown by acquire instead of working, when set: an exception of the store's own, not a LockStoreException. */
    public volatile RuntimeException acquireFailure;
    /** Thrown by release after the real release, when set. */
    public volatile RuntimeException releaseFailure;
    /** Run at the start of every acquire, when set: to hold a caller inside the store. */
    public volatile Runnable onAcquire;
    /** Run at the start of every release, when set: to see where and when the runtime releases. */
    public volatile Runnable onRelease;
    /** When set before the engine is made, the store offers release notifications, and subscribing runs this. */
    public volatile Function<Consumer<String>, AutoCloseable> subscriber;
    /** How long every renewal call (renew, or one renewAll for a whole batch) takes before it reaches the store. */
    public volatile long renewDelayMillis;
    /** How long an acquire takes after it reached the store and before its answer comes back, when set. */
    public volatile long acquireReplyDelayMillis;

    public final AtomicInteger renewCalls = new AtomicInteger();
    public final AtomicInteger acquireCalls = new AtomicInteger();
    /** The bound ({@code maxWaitMillis}) the runtime passed to each acquire, in order. */
    public final List<Long> acquireBounds = new CopyOnWriteArrayList<>();
    /** The bound ({@code maxWaitMillis}) the runtime passed to each renew or renewAll, in order. */
    public final List<Long> renewBounds = new CopyOnWriteArrayList<>();
    /** Every release call, as {@code key owner result}. */
    public final List<String> releases = new CopyOnWriteArrayList<>();

    /** On {@link System#nanoTime()}. */
    public FaultyStore() {
        this(System::nanoTime);
    }

    /** @param nanoClock the clock the store's leases run on, like {@link System#nanoTime()} */
    public FaultyStore(LongSupplier nanoClock) {
        delegate = new MemoryLockStore(nanoClock);
    }

    /** {@inheritDoc} A turn is not passed on (nor given up): the memory store's lock alone decides. */
    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        acquireBounds.add(acquisition.maxWaitMillis());
        acquireCalls.incrementAndGet();
        Runnable hook = onAcquire;
        if (hook != null) {
            hook.run();
        }
        failIfDown("acquire");
        RuntimeException failure = acquireFailure;
        if (failure != null) {
            throw failure;
        }
        AcquireResult result =
                delegate.acquire(Acquisition.of(acquisition.key(), acquisition.owner(), acquisition.ttlMillis()));
        sleep(acquireReplyDelayMillis);
        return result;
    }

    @Override
    public boolean renew(Renewal renewal) {
        renewBounds.add(renewal.maxWaitMillis());
        renewCalls.incrementAndGet();
        sleep(renewDelayMillis);
        failIfDown("renew");
        return !renewAnswersFalse && delegate.renew(renewal);
    }

    /** One round trip for the whole batch: the delay is paid once. */
    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        renewBounds.add(maxWaitMillis);
        renewCalls.incrementAndGet();
        sleep(renewDelayMillis);
        failIfDown("renew");
        return renewAnswersFalse ? Set.of() : delegate.renewAll(leases, ttlMillis, maxWaitMillis);
    }

    @Override
    public boolean release(String key, String owner) {
        Runnable hook = onRelease;
        if (hook != null) {
            hook.run();
        }
        failIfDown("release");
        boolean released = delegate.release(key, owner);
        releases.add(key + " " + owner + " " + released);
        RuntimeException failure = releaseFailure;
        if (failure != null) {
            throw failure;
        }
        return released;
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        Function<Consumer<String>, AutoCloseable> s = subscriber;
        return s == null ? LockStore.super.onRelease(listener) : s.apply(listener);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        // It notifies releases only through a subscriber the test sets (the memory store's own are not used).
        Set<StoreCapability> capabilities = EnumSet.copyOf(delegate.capabilities());
        if (subscriber == null) {
            capabilities.remove(StoreCapability.RELEASE_NOTIFICATION);
        } else {
            capabilities.add(StoreCapability.RELEASE_NOTIFICATION);
        }
        return capabilities;
    }

    private static void sleep(long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void failIfDown(String operation) {
        if (down) {
            throw new LockStoreException(
                    operation + " failed", new java.net.ConnectException("Connection refused (test: store down)"));
        }
    }
}
