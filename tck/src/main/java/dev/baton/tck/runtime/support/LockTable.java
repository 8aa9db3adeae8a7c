package dev.baton.tck.runtime.support;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The locks of the scenarios' own {@code LockStore} beans, in memory: acquire, renew and release as
 * atomic compare-and-sets on the JVM's monotonic clock. Not a bean: a store holds one. Like every store, it
 * checks no arguments: the requests checked themselves, the runtime checked the rest.
 */
public final class LockTable {

    private record Entry(String owner, long expiresAtNanos) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();

    /** {@code LockStore.acquire}: a new token when the key is free or expired. */
    public AcquireResult acquire(Acquisition acquisition) {
        long[] token = {0};
        entries.compute(acquisition.key(), (k, current) -> {
            long now = System.nanoTime();
            if (current != null && current.expiresAtNanos - now > 0) {
                return current;
            }
            token[0] = tokens.incrementAndGet();
            return new Entry(acquisition.owner(), now + acquisition.ttlMillis() * 1_000_000);
        });
        return token[0] > 0 ? AcquireResult.acquired(token[0]) : AcquireResult.notAcquired();
    }

    /** {@code LockStore.renew}: only the owner's live lock. */
    public boolean renew(Renewal renewal) {
        boolean[] renewed = {false};
        entries.computeIfPresent(renewal.key(), (k, current) -> {
            long now = System.nanoTime();
            if (current.owner.equals(renewal.owner()) && current.expiresAtNanos - now > 0) {
                renewed[0] = true;
                return new Entry(current.owner, now + renewal.ttlMillis() * 1_000_000);
            }
            return current;
        });
        return renewed[0];
    }

    /** {@code LockStore.release}: only the owner's live lock. */
    public boolean release(String key, String owner) {
        boolean[] released = {false};
        entries.computeIfPresent(key, (k, current) -> {
            if (current.owner.equals(owner) && current.expiresAtNanos - System.nanoTime() > 0) {
                released[0] = true;
                return null;
            }
            return current;
        });
        return released[0];
    }
}
