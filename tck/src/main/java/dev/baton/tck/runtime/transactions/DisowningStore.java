package dev.baton.tck.runtime.transactions;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deployment's store (an application {@code LockStore} bean): in memory, with a switch that makes it
 * answer every renewal with "not yours any more", as a store does when a holder's lease ran out and
 * another instance took the key.
 */
@ApplicationScoped
public class DisowningStore implements LockStore {

    private record Entry(String owner, long expiresAtNanos) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();
    private volatile boolean disowning;

    void disown(boolean on) {
        disowning = on;
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        LockArguments.requireValidKey(key);
        LockArguments.requireValidOwner(owner);
        LockArguments.requireValidTtl(ttlMillis);
        long[] token = {0};
        entries.compute(key, (k, current) -> {
            long now = System.nanoTime();
            if (current != null && current.expiresAtNanos - now > 0) {
                return current;
            }
            token[0] = tokens.incrementAndGet();
            return new Entry(owner, now + ttlMillis * 1_000_000);
        });
        return token[0] > 0 ? AcquireResult.acquired(token[0]) : AcquireResult.notAcquired();
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        if (disowning) {
            return false;
        }
        boolean[] renewed = {false};
        entries.computeIfPresent(key, (k, current) -> {
            long now = System.nanoTime();
            if (current.owner.equals(owner) && current.expiresAtNanos - now > 0) {
                renewed[0] = true;
                return new Entry(owner, now + ttlMillis * 1_000_000);
            }
            return current;
        });
        return renewed[0];
    }

    @Override
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
