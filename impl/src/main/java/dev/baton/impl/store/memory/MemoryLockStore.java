package dev.baton.impl.store.memory;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Locks in this JVM's memory: for development, tests and single-instance applications. The clock is
 * {@link System#nanoTime()}; fencing tokens come from one counter for the whole store.
 *
 * <p>Every operation is a single {@link ConcurrentHashMap#compute} on the key, so check and write are
 * atomic per key without any monitor of ours.
 *
 * <p>As every store, it refuses to work once closed: its locks are gone with it.
 */
public final class MemoryLockStore implements LockStore {

    private static final Set<StoreCapability> CAPABILITIES =
            EnumSet.of(StoreCapability.REMAINING_LEASE, StoreCapability.BATCH_RENEW, StoreCapability.NUL_IN_KEYS);

    /** Sweep expired entries every this many acquisitions, so abandoned keys do not pile up. */
    private static final int SWEEP_EVERY = 4096;

    private record Entry(String owner, long expiresAtNanos) {
        boolean liveAt(long now) {
            return expiresAtNanos - now > 0;
        }
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();
    private final AtomicLong acquisitions = new AtomicLong();
    private final LongSupplier nanoClock;
    private volatile boolean closed;

    /** A store on {@link System#nanoTime()}. */
    public MemoryLockStore() {
        this(System::nanoTime);
    }

    /**
     * A store on the given monotonic clock, for tests.
     *
     * @param nanoClock nanoseconds, like {@link System#nanoTime()}
     */
    public MemoryLockStore(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        check(key, owner, ttlMillis);
        requireOpen();
        if (acquisitions.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep();
        }
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        entries.compute(key, (k, current) -> {
            long now = nanoClock.getAsLong();
            if (current != null && current.liveAt(now)) {
                result.set(AcquireResult.notAcquired((current.expiresAtNanos - now) / 1_000_000));
                return current;
            }
            // The token is drawn inside the atomic section, after the check.
            result.set(AcquireResult.acquired(tokens.incrementAndGet()));
            return new Entry(owner, now + ttlMillis * 1_000_000);
        });
        return result.get();
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        check(key, owner, ttlMillis);
        requireOpen();
        boolean[] renewed = {false};
        entries.computeIfPresent(key, (k, current) -> {
            long now = nanoClock.getAsLong();
            if (current.owner.equals(owner) && current.liveAt(now)) {
                renewed[0] = true;
                return new Entry(owner, now + ttlMillis * 1_000_000);
            }
            return current;
        });
        return renewed[0];
    }

    @Override
    public boolean release(String key, String owner) {
        LockArguments.requireValidKey(key);
        LockArguments.requireValidOwner(owner);
        requireOpen();
        boolean[] released = {false};
        entries.computeIfPresent(key, (k, current) -> {
            if (current.owner.equals(owner) && current.liveAt(nanoClock.getAsLong())) {
                released[0] = true;
                return null;
            }
            return current;
        });
        return released[0];
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /** Drops every lock; every operation from now on fails with a {@link LockStoreException}. Idempotent. */
    @Override
    public void close() {
        closed = true;
        entries.clear();
    }

    private void requireOpen() {
        if (closed) {
            throw new LockStoreException("The memory lock store is closed");
        }
    }

    private void sweep() {
        long now = nanoClock.getAsLong();
        entries.forEach((key, entry) -> {
            if (!entry.liveAt(now)) {
                entries.computeIfPresent(key, (k, current) -> current.liveAt(nanoClock.getAsLong()) ? current : null);
            }
        });
    }

    private static void check(String key, String owner, long ttlMillis) {
        LockArguments.requireValidKey(key);
        LockArguments.requireValidOwner(owner);
        LockArguments.requireValidTtl(ttlMillis);
    }

    @Override
    public String toString() {
        return "memory";
    }
}
