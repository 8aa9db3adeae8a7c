package com.example.lockstore;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

/**
 * A lock store over a {@link ConcurrentMap} that outlives the store instances using it, as a store author
 * writes one against a backend: the map stands for a database table or a cache, each record for a row
 * {@code (key, owner, token, expiry)}. Every operation is one atomic {@link ConcurrentMap#compute} on the
 * key's record, the way a store uses one statement or one script.
 *
 * <p>A record stays when its lock is released or runs out (owner {@code null}, or an expiry in the past):
 * it carries the key's last fencing token, so the next holder's token is greater, whichever instance
 * draws it. Expiry is measured with {@link System#nanoTime()}, the one clock every instance in the JVM
 * shares.
 */
public final class MapLockStore implements LockStore {

    /** The backend: what a database or cache would hold. Instances created on one backend share its locks. */
    public static final class Backend {
        private final ConcurrentMap<String, Lock> locks = new ConcurrentHashMap<>();
    }

    /** One key's record; {@code owner == null} once released. */
    private record Lock(String owner, long token, long expiresAtNanos) {

        boolean liveAt(long now) {
            return owner != null && expiresAtNanos - now > 0;
        }

        boolean heldBy(String candidate, long now) {
            return liveAt(now) && owner.equals(candidate);
        }
    }

    private final Backend backend;
    private volatile boolean closed;

    /**
     * Creates a store instance on a backend.
     *
     * @param backend the shared records; not null
     */
    public MapLockStore(Backend backend) {
        if (backend == null) {
            throw new IllegalArgumentException("backend must not be null");
        }
        this.backend = backend;
    }

    // tag::acquire[]
    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        checkOpen(); // no argument checks: the request checked itself when it was built
        return atomically(acquisition.key(), (current, now) -> {
            if (current != null && current.liveAt(now)) {
                long remainingMillis = TimeUnit.NANOSECONDS.toMillis(current.expiresAtNanos() - now + 999_999);
                // a refusal changes nothing, also for the holder itself
                return new Step<>(current, AcquireResult.notAcquired(Math.max(1, remainingMillis)));
            }
            long token = current == null ? 1 : current.token() + 1;
            Lock taken = new Lock(acquisition.owner(), token, expiry(now, acquisition.ttlMillis()));
            return new Step<>(taken, AcquireResult.acquired(token));
        });
    }
    // end::acquire[]

    // tag::renew[]
    @Override
    public boolean renew(Renewal renewal) {
        checkOpen();
        // expired, released or someone else's: never revived
        return atomically(
                renewal.key(),
                (current, now) -> current != null && current.heldBy(renewal.owner(), now)
                        ? new Step<>(new Lock(current.owner(), current.token(), expiry(now, renewal.ttlMillis())), true)
                        : new Step<>(current, false));
    }
    // end::renew[]

    @Override
    public boolean release(String key, String owner) {
        checkOpen(); // the runtime checked key and owner before calling
        // a stale owner never frees its successor's lock; the token stays for the next holder
        return atomically(
                key,
                (current, now) -> current != null && current.heldBy(owner, now)
                        ? new Step<>(new Lock(null, current.token(), current.expiresAtNanos()), true)
                        : new Step<>(current, false));
    }

    // tag::capabilities[]
    /** Records outlive instances; remaining leases are known; keys may hold NUL (the map keeps any string). */
    @Override
    public Set<StoreCapability> capabilities() {
        return EnumSet.of(StoreCapability.PERSISTENT, StoreCapability.REMAINING_LEASE, StoreCapability.NUL_IN_KEYS);
    }
    // end::capabilities[]

    /** Closes this instance; the backend and its locks stay. A second call does nothing. */
    @Override
    public void close() {
        closed = true;
    }

    /** What one atomic step on a key's record decides: the record to keep ({@code null}: none), and the answer. */
    private record Step<T>(Lock keep, T answer) {}

    /** One atomic read-and-write of {@code key}'s record, like one statement on a row. */
    private <T> T atomically(String key, BiFunction<Lock, Long, Step<T>> decide) {
        AtomicReference<T> answer = new AtomicReference<>();
        backend.locks.compute(key, (k, current) -> {
            Step<T> step = decide.apply(current, System.nanoTime());
            answer.set(step.answer());
            return step.keep();
        });
        return answer.get();
    }

    private static long expiry(long now, long ttlMillis) {
        return now + TimeUnit.MILLISECONDS.toNanos(ttlMillis); // at most 365 days: far from overflowing
    }

    private void checkOpen() {
        if (closed) {
            throw new LockStoreException("this MapLockStore is closed");
        }
    }

    @Override
    public String toString() {
        return "MapLockStore" + (closed ? " (closed)" : "");
    }
}
