package dev.baton.impl.store.memory;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Locks in this JVM's memory: for development, tests and single-instance applications. The clock is
 * {@link System#nanoTime()}; fencing tokens come from one counter for the whole store.
 *
 * <p>Every operation is a single {@link ConcurrentHashMap#compute} on the key, so check and write are
 * atomic per key without any monitor of ours.
 *
 * <p>Waiting turns ({@link StoreCapability#WAITING_TURNS}) matter here only between lock managers of one
 * JVM that share the store; within one manager, its own queue already serves waiters in order.
 *
 * <p>Releases are notified ({@link StoreCapability#RELEASE_NOTIFICATION}) to the managers that share the
 * store, on the releasing thread, as is a turn given up: a waiter of another manager learns at once that it
 * may take the key or claim its turn, instead of at its next poll.
 *
 * <p>As every store, it refuses to work once closed: its locks are gone with it.
 *
 * <p>Each call is linearizable (one atomic step of its key's entry), with tokens ordered per key as the contract
 * promises, not across keys: a token is drawn inside its key's step, so acquisitions of two keys may become visible
 * in the other order than their tokens (model-checked: {@code MemoryLockStoreLincheckTest}).
 */
public final class MemoryLockStore implements LockStore {

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.WAITING_TURNS,
            StoreCapability.RELEASE_NOTIFICATION,
            StoreCapability.INSPECT,
            StoreCapability.SHARED_LOCKS,
            StoreCapability.HAND_OVER);

    /** Sweep expired entries every this many acquisitions, so abandoned keys do not pile up. */
    private static final int SWEEP_EVERY = 4096;

    /**
     * A key's exclusive lock (owner null when it has none), its holder's fencing token, its next turn (null if
     * none), and its shared leases (null if none; never together with a live exclusive lock).
     */
    private record Entry(String owner, long token, long expiresAtNanos, WaiterTurn turn, SharedLease[] shared) {
        boolean liveAt(long now) {
            return owner != null && expiresAtNanos - now > 0;
        }

        boolean turnLiveAt(long now) {
            return turn != null && turn.untilNanos - now > 0;
        }

        /** @return the shared leases still live at {@code now}, none if there are none */
        SharedLease[] liveShared(long now) {
            if (shared == null) {
                return NO_SHARES;
            }
            int live = 0;
            for (SharedLease lease : shared) {
                if (lease.expiresAtNanos - now > 0) {
                    live++;
                }
            }
            if (live == shared.length) {
                return shared;
            }
            SharedLease[] kept = new SharedLease[live];
            int i = 0;
            for (SharedLease lease : shared) {
                if (lease.expiresAtNanos - now > 0) {
                    kept[i++] = lease;
                }
            }
            return kept;
        }

        /** @return whether anything lives here at {@code now}: a lock, a shared lease or a turn */
        boolean anythingLiveAt(long now) {
            return liveAt(now) || turnLiveAt(now) || liveShared(now).length > 0;
        }

        /** What is left once the exclusive lock is gone: the live turn, or nothing. */
        Entry withoutLock(long now) {
            return turnLiveAt(now) ? new Entry(null, 0, now, turn, null) : null;
        }

        /** @return this entry with these shared leases and this turn, or null when it holds nothing live */
        static Entry shares(SharedLease[] shares, WaiterTurn turn, long now) {
            boolean turnLive = turn != null && turn.untilNanos - now > 0;
            if (shares.length == 0 && !turnLive) {
                return null;
            }
            return new Entry(null, 0, now, turnLive ? turn : null, shares.length == 0 ? null : shares);
        }
    }

    private record WaiterTurn(String waiter, long sinceNanos, long untilNanos) {}

    /** One shared lease of a key: a permit or a read lock. */
    private record SharedLease(String owner, long token, long expiresAtNanos) {}

    private static final SharedLease[] NO_SHARES = {};

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();
    private final AtomicLong acquisitions = new AtomicLong();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
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
    public AcquireResult acquire(Acquisition acquisition) {
        String key = acquisition.key();
        String owner = acquisition.owner();
        long ttlMillis = acquisition.ttlMillis();
        Turn turn = acquisition.turn();
        requireOpen();
        if (acquisitions.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep();
        }
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        entries.compute(key, (k, current) -> {
            long now = nanoClock.getAsLong();
            long since = turn == null ? now : now - turn.waitedMillis() * 1_000_000;
            WaiterTurn claim =
                    turn == null ? null : new WaiterTurn(turn.waiter(), since, now + turn.keepMillis() * 1_000_000);
            WaiterTurn standing = current != null && current.turnLiveAt(now) ? current.turn : null;
            boolean mayClaim = claim != null
                    && (standing == null
                            || standing.waiter.equals(claim.waiter)
                            || standing.sinceNanos - claim.sinceNanos > 0);
            if (current != null && current.liveAt(now)) {
                long remaining = (current.expiresAtNanos - now) / 1_000_000;
                if (mayClaim) {
                    result.set(AcquireResult.nextInTurn(remaining));
                    return new Entry(current.owner, current.token, current.expiresAtNanos, claim, null);
                }
                result.set(AcquireResult.notAcquired(remaining));
                return current;
            }
            SharedLease[] shares = current == null ? NO_SHARES : current.liveShared(now);
            long blockedFor = blockedMillis(shares, acquisition.sharedLimit(), now);
            if (blockedFor >= 0) {
                if (mayClaim) {
                    result.set(AcquireResult.nextInTurn(blockedFor));
                    return Entry.shares(shares, claim, now);
                }
                result.set(AcquireResult.notAcquired(blockedFor));
                return Entry.shares(shares, standing, now);
            }
            if (standing != null && !mayClaim) {
                result.set(AcquireResult.notAcquired()); // free, but kept for the waiter whose turn it is
                return current;
            }
            for (SharedLease lease : shares) {
                if (lease.owner.equals(owner)) {
                    result.set(AcquireResult.notAcquired()); // its own lease: changes nothing, as for a lock
                    return current;
                }
            }
            // The token is drawn inside the atomic section, after the check; taking the key ends its turn.
            long token = tokens.incrementAndGet();
            result.set(AcquireResult.acquired(token));
            long expiresAt = now + ttlMillis * 1_000_000;
            if (!acquisition.isShared()) {
                return new Entry(owner, token, expiresAt, null, null);
            }
            SharedLease[] more = Arrays.copyOf(shares, shares.length + 1);
            more[shares.length] = new SharedLease(owner, token, expiresAt);
            return Entry.shares(more, null, now);
        });
        return result.get();
    }

    /**
     * @return -1 if live shared leases leave room for an acquisition with this limit; otherwise how long until
     *     they would by expiry: the longest lease for an exclusive acquisition, the shortest for a shared one
     */
    private static long blockedMillis(SharedLease[] shares, int sharedLimit, long now) {
        if (shares.length == 0 || (sharedLimit != Acquisition.EXCLUSIVE && shares.length < sharedLimit)) {
            return -1;
        }
        long until = shares[0].expiresAtNanos;
        for (SharedLease lease : shares) {
            boolean later = lease.expiresAtNanos - until > 0;
            if (sharedLimit == Acquisition.EXCLUSIVE ? later : !later) {
                until = lease.expiresAtNanos;
            }
        }
        return (until - now) / 1_000_000;
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        requireOpen();
        boolean[] left = {false};
        entries.computeIfPresent(key, (k, current) -> {
            long now = nanoClock.getAsLong();
            if (current.turnLiveAt(now) && current.turn.waiter.equals(waiter)) {
                left[0] = true;
                return current.liveAt(now)
                        ? new Entry(current.owner, current.token, current.expiresAtNanos, null, null)
                        : Entry.shares(current.liveShared(now), null, now);
            }
            return current;
        });
        if (left[0]) {
            tell(key);
        }
        return left[0];
    }

    @Override
    public boolean renew(Renewal renewal) {
        String owner = renewal.owner();
        long ttlMillis = renewal.ttlMillis();
        requireOpen();
        boolean[] renewed = {false};
        entries.computeIfPresent(renewal.key(), (k, current) -> {
            long now = nanoClock.getAsLong();
            if (owner.equals(current.owner) && current.liveAt(now)) {
                renewed[0] = true;
                return new Entry(owner, current.token, now + ttlMillis * 1_000_000, current.turn, null);
            }
            SharedLease[] shares = current.liveShared(now);
            for (int i = 0; i < shares.length; i++) {
                if (shares[i].owner.equals(owner)) {
                    renewed[0] = true;
                    SharedLease[] renewedShares = shares.clone();
                    renewedShares[i] = new SharedLease(owner, shares[i].token, now + ttlMillis * 1_000_000);
                    return Entry.shares(renewedShares, current.turn, now);
                }
            }
            return current;
        });
        return renewed[0];
    }

    @Override
    public boolean release(String key, String owner) {
        requireOpen();
        boolean[] released = {false};
        entries.computeIfPresent(key, (k, current) -> {
            long now = nanoClock.getAsLong();
            if (owner.equals(current.owner) && current.liveAt(now)) {
                released[0] = true;
                return current.withoutLock(now);
            }
            SharedLease[] shares = current.liveShared(now);
            for (int i = 0; i < shares.length; i++) {
                if (shares[i].owner.equals(owner)) {
                    released[0] = true;
                    SharedLease[] left = new SharedLease[shares.length - 1];
                    System.arraycopy(shares, 0, left, 0, i);
                    System.arraycopy(shares, i + 1, left, i, shares.length - i - 1);
                    return Entry.shares(left, current.turn, now);
                }
            }
            return current;
        });
        if (released[0]) {
            tell(key);
        }
        return released[0];
    }

    /** {@inheritDoc} In one atomic step of the key's entry. */
    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        HandOverResult.requireHandOverTo(next);
        requireOpen();
        String key = next.key();
        AtomicReference<HandOverResult> result = new AtomicReference<>();
        entries.computeIfPresent(key, (k, current) -> {
            long now = nanoClock.getAsLong();
            if (!owner.equals(current.owner) || !current.liveAt(now)) {
                return current; // not the owner's: the acquisition alone, below
            }
            if (current.turnLiveAt(now)) { // kept for another waiter: released as release() does
                result.set(new HandOverResult(true, AcquireResult.notAcquired()));
                return current.withoutLock(now);
            }
            long token = tokens.incrementAndGet();
            result.set(new HandOverResult(true, AcquireResult.acquired(token)));
            return new Entry(next.owner(), token, now + next.ttlMillis() * 1_000_000, null, null);
        });
        HandOverResult done = result.get();
        if (done == null) {
            return new HandOverResult(false, acquire(next));
        }
        if (!done.next().isAcquired()) {
            tell(key);
        }
        return done;
    }

    /** {@inheritDoc} Listeners run on the thread that released the key (or gave its turn up). */
    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        Objects.requireNonNull(listener, "listener");
        requireOpen();
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private void tell(String key) {
        for (Consumer<String> listener : listeners) {
            try {
                listener.accept(key);
            } catch (RuntimeException e) {
                // a hint only: the key is released all the same, and the waiters still poll
            }
        }
    }

    /** {@inheritDoc} A plain read of the key's entry: nothing changes. */
    @Override
    public Optional<Holder> inspect(String key) {
        requireOpen();
        Entry current = entries.get(key);
        long now = nanoClock.getAsLong();
        if (current == null) {
            return Optional.empty();
        }
        if (current.liveAt(now)) {
            return Optional.of(new Holder(current.owner, current.token, remainingMillis(current.expiresAtNanos, now)));
        }
        SharedLease newest = null;
        for (SharedLease lease : current.liveShared(now)) {
            if (newest == null || lease.token > newest.token) {
                newest = lease;
            }
        }
        return newest == null
                ? Optional.empty()
                : Optional.of(new Holder(newest.owner, newest.token, remainingMillis(newest.expiresAtNanos, now)));
    }

    /** Rounded up: a live lease has at least 1 ms left. */
    private static long remainingMillis(long expiresAtNanos, long now) {
        return Math.max(1, (expiresAtNanos - now + 999_999) / 1_000_000);
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
        listeners.clear();
    }

    private void requireOpen() {
        if (closed) {
            throw new LockStoreException("The memory lock store is closed");
        }
    }

    private void sweep() {
        long now = nanoClock.getAsLong();
        entries.forEach((key, entry) -> {
            if (!entry.anythingLiveAt(now)) {
                entries.computeIfPresent(key, (k, current) -> {
                    long at = nanoClock.getAsLong();
                    return current.anythingLiveAt(at) ? current : null;
                });
            }
        });
    }

    @Override
    public String toString() {
        return "memory";
    }
}
