package dev.baton.tck;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A store in memory for the TCK's own tests: correct without {@link Flaw}s, and with them broken in one
 * of the ways real stores break, so the tests can show that the suite catches each. Instances created on
 * one {@link Backend} share its locks and counters, like instances of a database store.
 */
final class TestLockStore implements LockStore {

    /** One way to break a store. */
    enum Flaw {
        /** Reads, then writes in a separate step: concurrent callers all see the key free. */
        RACY_ACQUIRE,
        /** Deletes the key's token counter with the lock. */
        RELEASE_RESETS_COUNTER,
        /** Renews by owner without checking the expiry, reviving expired locks. */
        RENEW_REVIVES,
        /** A renewal only lengthens a lease: a shorter ttl leaves the longer expiry (a {@code GREATEST} in SQL). */
        RENEW_NEVER_SHORTENS,
        /** Compares keys case-insensitively. */
        FOLDS_CASE,
        /** Strips leading and trailing white space from keys (a padded CHAR column, a PAD SPACE collation). */
        TRIMS_SPACES,
        /** Checks the owner, then deletes by key in a separate step. */
        NON_ATOMIC_RELEASE,
        /** Draws tokens from the wall clock in milliseconds. */
        REPEATING_TOKENS,
        /** Lets the holder acquire its own live lock again. */
        REENTRANT,
        /** Keeps only the first 255 chars of a key. */
        TRUNCATES_KEYS,
        /** Keeps token counters in the instance, not the backend. */
        FORGETS_TOKENS_ON_RESTART,
        /** Computes expiries in {@code int} milliseconds. */
        INT_TTL,
        /** Releases whatever the owner. */
        RELEASE_BY_ANY_OWNER,
        /** Declares {@code NUL_IN_KEYS} but drops {@code U+0000} from keys (a C string on the way). */
        DROPS_NUL,
        /** Never unregisters release listeners. */
        LISTENERS_STAY,
        /** A refused acquire sets the holder's expiry to the caller's ttl. */
        REFUSAL_EXTENDS_LEASE,
        /** Goes on working after {@link LockStore#close()} (a client that reconnects by itself). */
        WORKS_AFTER_CLOSE,
        /** Plain acquisitions take a free key whatever its turn. */
        PLAIN_ACQUIRE_IGNORES_TURNS,
        /** A turn lasts until its waiter takes the key or leaves. */
        TURNS_NEVER_EXPIRE,
        /** The first waiter keeps the turn, however long a later one has waited. */
        FIRST_WAITER_KEEPS_TURN,
        /** Inspection reports a key's last holder even when its lease is over. */
        INSPECT_SEES_EXPIRED,
        /** Inspection reports the remaining lease in seconds. */
        INSPECT_REMAINING_IN_SECONDS,
        /** Inspection touches the lock: it renews the lease by a minute. */
        INSPECT_RENEWS,
        /** Inspection reports a masked owner, not the one that frees the key. */
        INSPECT_MASKS_OWNER,
        /** Declares {@code ENDS_WITH_CONNECTION}, but a closed instance's locks stay until their ttl runs out. */
        LOCKS_OUTLIVE_CLOSE,
        /** Declares {@code ENDS_WITH_CONNECTION}, but renews and releases a lock through any instance. */
        ANY_INSTANCE_RENEWS,
        /** Compares the count of shared leases with the limit off by one: lets N + 1 holders in. */
        SHARED_OVER_LIMIT,
        /** An exclusive acquisition looks only for an exclusive lock: it is taken beside shared leases. */
        EXCLUSIVE_BESIDE_SHARED,
        /** Shared leases count until they are released: the place of a holder that crashed is never freed. */
        SHARED_NEVER_EXPIRE,
        /** Shared acquisitions neither heed nor claim turns: readers stream past a waiting writer. */
        SHARED_IGNORES_TURNS,
        /** Declares {@code HAND_OVER} but releases, then acquires, in two steps: a racing caller gets in between. */
        NON_ATOMIC_HAND_OVER,
        /** Hands a key over whatever its turn: a waiter of another instance loses its place. */
        HAND_OVER_IGNORES_TURNS,
        /** A hand-over by a caller that does not hold the key gives the next owner nothing, also of a free key. */
        HAND_OVER_REFUSES_FREE_KEY
    }

    /** What instances share: locks, token counters, release listeners. */
    static final class Backend {
        final Map<String, Entry> entries = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
        /** Turns by key, changed only inside a {@code compute} of the key's entry, so atomically with it. */
        final Map<String, KeyTurn> turns = new ConcurrentHashMap<>();
        /**
         * Shared leases by key, in the order they were taken, changed only inside a {@code compute} of the key's
         * entry, so atomically with its exclusive lock and its turn.
         */
        final Map<String, List<SharedLease>> shares = new ConcurrentHashMap<>();

        final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
        final AtomicLong opened = new AtomicLong();
        final AtomicLong closed = new AtomicLong();
        /** Closes of an instance closed already (which must do nothing). */
        final AtomicLong closedAgain = new AtomicLong();
    }

    /** @param holder the instance whose "connection" holds the lock ({@code ENDS_WITH_CONNECTION}), else null */
    record Entry(String owner, long token, long expiresAtNanos, TestLockStore holder) {
        boolean liveAt(long now) {
            return expiresAtNanos - now > 0;
        }
    }

    record KeyTurn(String waiter, long sinceNanos, long untilNanos) {}

    /** One shared lease of a key; {@code holder} as in {@link Entry}. */
    record SharedLease(String owner, long token, long expiresAtNanos, TestLockStore holder) {
        boolean liveAt(long now) {
            return expiresAtNanos - now > 0;
        }
    }

    private final Backend backend;
    private final Set<StoreCapability> capabilities;
    private final Set<Flaw> flaws;
    private final Map<String, AtomicLong> counters;
    private volatile boolean isClosed;

    TestLockStore(Backend backend, Set<StoreCapability> capabilities, Set<Flaw> flaws) {
        this.backend = backend;
        this.capabilities = capabilities.isEmpty() ? Set.of() : EnumSet.copyOf(capabilities);
        this.flaws = flaws.isEmpty() ? Set.of() : EnumSet.copyOf(flaws);
        this.counters = has(Flaw.FORGETS_TOKENS_ON_RESTART) ? new ConcurrentHashMap<>() : backend.counters;
        backend.opened.incrementAndGet();
    }

    @Override
    public synchronized void close() {
        if (isClosed) {
            backend.closedAgain.incrementAndGet();
            return;
        }
        isClosed = true;
        backend.closed.incrementAndGet();
        if (capabilities.contains(StoreCapability.ENDS_WITH_CONNECTION) && !has(Flaw.LOCKS_OUTLIVE_CLOSE)) {
            backend.entries.values().removeIf(entry -> entry.holder == this); // the "connection" ends
            for (String k : backend.shares.keySet()) {
                backend.entries.compute(k, (ignored, current) -> {
                    backend.shares.computeIfPresent(
                            k,
                            (same, leases) -> leases.stream()
                                    .filter(lease -> lease.holder != this)
                                    .toList());
                    return current;
                });
            }
        }
    }

    private Entry taken(String owner, long token, long ttlMillis) {
        return new Entry(owner, token, expiry(ttlMillis), connection());
    }

    /** The instance whose "connection" holds a lock taken now ({@code ENDS_WITH_CONNECTION}), else null. */
    private TestLockStore connection() {
        return capabilities.contains(StoreCapability.ENDS_WITH_CONNECTION) ? this : null;
    }

    /** Whether this instance may renew or release the lock: any may, unless it lives on another's connection. */
    private boolean mine(Entry entry) {
        return mine(entry.holder);
    }

    private boolean mine(TestLockStore holder) {
        return holder == null || holder == this || has(Flaw.ANY_INSTANCE_RENEWS);
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        // a store without WAITING_TURNS ignores the turn
        Turn turn = capabilities.contains(StoreCapability.WAITING_TURNS) ? acquisition.turn() : null;
        if (acquisition.isShared()) {
            return acquireShared(
                    storedKey(acquisition.key()),
                    acquisition.owner(),
                    acquisition.ttlMillis(),
                    turn,
                    acquisition.sharedLimit());
        }
        return acquire(storedKey(acquisition.key()), acquisition.owner(), acquisition.ttlMillis(), turn);
    }

    private AcquireResult acquire(String k, String owner, long ttlMillis, Turn turn) {
        if (has(Flaw.RACY_ACQUIRE)) {
            Entry current = backend.entries.get(k);
            if (current != null && current.liveAt(System.nanoTime())) {
                return refusal(current, System.nanoTime());
            }
            LockSupport.parkNanos(100_000);
            long token = nextToken(k);
            backend.entries.put(k, taken(owner, token, ttlMillis));
            return AcquireResult.acquired(token);
        }
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        backend.entries.compute(k, (ignored, current) -> {
            long now = System.nanoTime();
            KeyTurn standing = liveTurn(k, now);
            boolean mayClaim = turn != null && mayClaim(standing, turn, now);
            if (current != null && current.liveAt(now) && !(has(Flaw.REENTRANT) && current.owner.equals(owner))) {
                if (mayClaim) {
                    claim(k, turn, now);
                    long remaining = (current.expiresAtNanos - now) / 1_000_000;
                    result.set(AcquireResult.nextInTurn(remaining));
                } else {
                    result.set(refusal(current, now));
                }
                return has(Flaw.REFUSAL_EXTENDS_LEASE)
                        ? new Entry(current.owner, current.token, expiry(ttlMillis), current.holder)
                        : current;
            }
            List<SharedLease> shares = liveShares(k, now);
            if (!shares.isEmpty() && !has(Flaw.EXCLUSIVE_BESIDE_SHARED)) {
                // the key has room for an exclusive lease once the last shared one ends
                long remaining = (latestExpiry(shares) - now) / 1_000_000;
                if (mayClaim) {
                    claim(k, turn, now);
                    result.set(AcquireResult.nextInTurn(remaining));
                } else {
                    result.set(refusal(remaining));
                }
                return current;
            }
            boolean keptForAnother =
                    standing != null && !mayClaim && !(turn == null && has(Flaw.PLAIN_ACQUIRE_IGNORES_TURNS));
            if (keptForAnother) {
                result.set(AcquireResult.notAcquired());
                return current;
            }
            backend.turns.remove(k);
            long token = nextToken(k);
            result.set(AcquireResult.acquired(token));
            return taken(owner, token, ttlMillis);
        });
        return result.get();
    }

    /**
     * A shared acquisition: taken while no live exclusive lock and fewer than {@code limit} live shared leases
     * hold the key, in one {@code compute} of the key's entry.
     */
    private AcquireResult acquireShared(String k, String owner, long ttlMillis, Turn turn, int limit) {
        boolean heedsTurns = !has(Flaw.SHARED_IGNORES_TURNS);
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        backend.entries.compute(k, (ignored, current) -> {
            long now = System.nanoTime();
            KeyTurn standing = heedsTurns ? liveTurn(k, now) : null;
            boolean mayClaim = heedsTurns && turn != null && mayClaim(standing, turn, now);
            List<SharedLease> shares = liveShares(k, now);
            long full = has(Flaw.SHARED_OVER_LIMIT) ? (long) limit + 1 : limit;
            boolean exclusiveHeld = current != null && current.liveAt(now);
            if (exclusiveHeld || shares.size() >= full) {
                long blockedMillis = exclusiveHeld
                        ? (current.expiresAtNanos - now) / 1_000_000
                        : (earliestExpiry(shares) - now) / 1_000_000; // a place is free when one ends
                if (mayClaim) {
                    claim(k, turn, now);
                    result.set(AcquireResult.nextInTurn(blockedMillis));
                } else {
                    result.set(refusal(blockedMillis));
                }
                return current;
            }
            if (standing != null && !mayClaim) {
                result.set(AcquireResult.notAcquired()); // room, but kept for the waiter whose turn it is
                return current;
            }
            if (shares.stream().anyMatch(lease -> lease.owner.equals(owner))) {
                // Its own live lease: changes nothing, as for a lock (found by the store properties).
                result.set(AcquireResult.notAcquired());
                return current;
            }
            if (heedsTurns) {
                backend.turns.remove(k);
            }
            long token = nextToken(k);
            List<SharedLease> more = new ArrayList<>(shares);
            more.add(new SharedLease(owner, token, expiry(ttlMillis), connection()));
            backend.shares.put(k, List.copyOf(more));
            result.set(AcquireResult.acquired(token));
            return current;
        });
        return result.get();
    }

    /** The key's shared leases that count at {@code now}: the live ones (all of them with a flaw). */
    private List<SharedLease> liveShares(String k, long now) {
        List<SharedLease> shares = backend.shares.getOrDefault(k, List.of());
        return has(Flaw.SHARED_NEVER_EXPIRE)
                ? shares
                : shares.stream().filter(lease -> lease.liveAt(now)).toList();
    }

    private static long latestExpiry(List<SharedLease> shares) {
        long latest = shares.get(0).expiresAtNanos;
        for (SharedLease lease : shares) {
            if (lease.expiresAtNanos - latest > 0) {
                latest = lease.expiresAtNanos;
            }
        }
        return latest;
    }

    private static long earliestExpiry(List<SharedLease> shares) {
        long earliest = shares.get(0).expiresAtNanos;
        for (SharedLease lease : shares) {
            if (lease.expiresAtNanos - earliest < 0) {
                earliest = lease.expiresAtNanos;
            }
        }
        return earliest;
    }

    private KeyTurn liveTurn(String k, long now) {
        KeyTurn turn = backend.turns.get(k);
        return turn != null && (turn.untilNanos - now > 0 || has(Flaw.TURNS_NEVER_EXPIRE)) ? turn : null;
    }

    private boolean mayClaim(KeyTurn standing, Turn turn, long now) {
        if (standing == null || standing.waiter.equals(turn.waiter())) {
            return true;
        }
        long since = now - turn.waitedMillis() * 1_000_000;
        return !has(Flaw.FIRST_WAITER_KEEPS_TURN) && standing.sinceNanos - since > 0;
    }

    private void claim(String k, Turn turn, long now) {
        backend.turns.put(
                k,
                new KeyTurn(turn.waiter(), now - turn.waitedMillis() * 1_000_000, now + turn.keepMillis() * 1_000_000));
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        String k = storedKey(key);
        boolean[] left = {false};
        backend.entries.compute(k, (ignored, current) -> {
            KeyTurn standing = liveTurn(k, System.nanoTime());
            if (standing != null && standing.waiter.equals(waiter)) {
                backend.turns.remove(k);
                left[0] = true;
            }
            return current;
        });
        return left[0];
    }

    @Override
    public boolean renew(Renewal renewal) {
        String k = storedKey(renewal.key());
        // an owner holds either the exclusive lock or one shared lease of a key: the runtime draws one per acquisition
        return renewExclusive(k, renewal.owner(), renewal.ttlMillis())
                || renewShared(k, renewal.owner(), renewal.ttlMillis());
    }

    private boolean renewShared(String k, String owner, long ttlMillis) {
        boolean[] renewed = {false};
        backend.entries.compute(k, (ignored, current) -> {
            List<SharedLease> shares = liveShares(k, System.nanoTime());
            for (int i = 0; i < shares.size(); i++) {
                SharedLease lease = shares.get(i);
                if (lease.owner.equals(owner) && mine(lease.holder)) {
                    List<SharedLease> renewedShares = new ArrayList<>(shares);
                    renewedShares.set(i, new SharedLease(owner, lease.token, expiry(ttlMillis), lease.holder));
                    backend.shares.put(k, List.copyOf(renewedShares));
                    renewed[0] = true;
                    break;
                }
            }
            return current;
        });
        return renewed[0];
    }

    private boolean renewExclusive(String k, String owner, long ttlMillis) {
        boolean[] renewed = {false};
        backend.entries.computeIfPresent(k, (ignored, current) -> {
            if (current.owner.equals(owner)
                    && mine(current)
                    && (current.liveAt(System.nanoTime()) || has(Flaw.RENEW_REVIVES))) {
                renewed[0] = true;
                long expiry = expiry(ttlMillis);
                if (has(Flaw.RENEW_NEVER_SHORTENS) && current.expiresAtNanos - expiry > 0) {
                    expiry = current.expiresAtNanos;
                }
                return new Entry(owner, current.token, expiry, current.holder);
            }
            return current;
        });
        return renewed[0];
    }

    @Override
    public boolean release(String key, String owner) {
        String k = storedKey(key);
        boolean released = releaseExclusive(k, owner) || releaseShared(k, owner);
        if (released) {
            if (has(Flaw.RELEASE_RESETS_COUNTER)) {
                counters.remove(k);
            }
            for (Consumer<String> listener : backend.listeners) {
                CompletableFuture.runAsync(() -> listener.accept(key));
            }
        }
        return released;
    }

    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        HandOverResult.requireHandOverTo(next);
        if (has(Flaw.NON_ATOMIC_HAND_OVER)) {
            boolean released = release(next.key(), owner);
            LockSupport.parkNanos(1_000_000);
            return new HandOverResult(released, acquire(next));
        }
        String k = storedKey(next.key());
        AtomicReference<HandOverResult> result = new AtomicReference<>();
        backend.entries.computeIfPresent(k, (ignored, current) -> {
            long now = System.nanoTime();
            if (!current.owner.equals(owner) || !mine(current) || !current.liveAt(now)) {
                return current;
            }
            if (liveTurn(k, now) != null && !has(Flaw.HAND_OVER_IGNORES_TURNS)) {
                result.set(new HandOverResult(true, AcquireResult.notAcquired())); // released, kept for the turn
                return null;
            }
            backend.turns.remove(k);
            long token = nextToken(k);
            result.set(new HandOverResult(true, AcquireResult.acquired(token)));
            return taken(next.owner(), token, next.ttlMillis());
        });
        HandOverResult done = result.get();
        if (done == null) {
            // Not the owner's live exclusive lock: the acquisition alone, as the contract says (the store properties
            // found this answering "not acquired" for a free key, and releasing the owner's shared lease).
            return new HandOverResult(
                    false, has(Flaw.HAND_OVER_REFUSES_FREE_KEY) ? AcquireResult.notAcquired() : acquire(next));
        }
        if (!done.next().isAcquired()) {
            for (Consumer<String> listener : backend.listeners) {
                CompletableFuture.runAsync(() -> listener.accept(next.key()));
            }
        }
        return done;
    }

    private boolean releaseShared(String k, String owner) {
        boolean[] removed = {false};
        backend.entries.compute(k, (ignored, current) -> {
            List<SharedLease> shares = liveShares(k, System.nanoTime());
            List<SharedLease> left = shares.stream()
                    .filter(lease -> !(lease.owner.equals(owner) && mine(lease.holder)))
                    .toList();
            if (left.size() < shares.size()) {
                removed[0] = true;
                backend.shares.put(k, left);
            }
            return current;
        });
        return removed[0];
    }

    private boolean releaseExclusive(String k, String owner) {
        boolean released;
        if (has(Flaw.NON_ATOMIC_RELEASE)) {
            Entry current = backend.entries.get(k);
            released = current != null && current.owner.equals(owner) && current.liveAt(System.nanoTime());
            if (released) {
                LockSupport.parkNanos(3_000_000);
                backend.entries.remove(k);
            }
        } else {
            boolean[] removed = {false};
            backend.entries.computeIfPresent(k, (ignored, current) -> {
                boolean ownerMatches = (current.owner.equals(owner) || has(Flaw.RELEASE_BY_ANY_OWNER)) && mine(current);
                removed[0] = ownerMatches && current.liveAt(System.nanoTime());
                return removed[0] ? null : current;
            });
            released = removed[0];
        }
        return released;
    }

    @Override
    public Optional<Holder> inspect(String key) {
        if (!capabilities.contains(StoreCapability.INSPECT)) {
            return LockStore.super.inspect(key);
        }
        String k = storedKey(key);
        AtomicReference<Holder> holder = new AtomicReference<>();
        backend.entries.computeIfPresent(k, (ignored, current) -> {
            long now = System.nanoTime();
            if (!current.liveAt(now) && !has(Flaw.INSPECT_SEES_EXPIRED)) {
                return current;
            }
            long remaining = Math.max(1, (current.expiresAtNanos - now) / 1_000_000);
            holder.set(new Holder(
                    has(Flaw.INSPECT_MASKS_OWNER) ? "owner-hidden" : current.owner,
                    current.token,
                    has(Flaw.INSPECT_REMAINING_IN_SECONDS) ? Math.max(1, remaining / 1000) : remaining));
            return has(Flaw.INSPECT_RENEWS)
                    ? new Entry(current.owner, current.token, expiry(60_000), current.holder)
                    : current;
        });
        if (holder.get() == null) {
            // a key held by shared leases reports the one with the greatest token
            long now = System.nanoTime();
            liveShares(k, now).stream()
                    .max(Comparator.comparingLong(SharedLease::token))
                    .ifPresent(newest -> holder.set(new Holder(
                            newest.owner, newest.token, Math.max(1, (newest.expiresAtNanos - now) / 1_000_000))));
        }
        return Optional.ofNullable(holder.get());
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        if (!capabilities.contains(StoreCapability.RELEASE_NOTIFICATION)) {
            return LockStore.super.onRelease(listener);
        }
        backend.listeners.add(listener);
        return () -> {
            if (!has(Flaw.LISTENERS_STAY)) {
                backend.listeners.remove(listener);
            }
        };
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return capabilities;
    }

    private boolean has(Flaw flaw) {
        return flaws.contains(flaw);
    }

    /** The key as this store keeps it (a flaw may mangle it); fails once the store is closed. */
    private String storedKey(String key) {
        if (isClosed && !has(Flaw.WORKS_AFTER_CLOSE)) {
            throw new LockStoreException("store used after close()");
        }
        String k = key;
        if (has(Flaw.DROPS_NUL)) {
            k = k.replace("\0", "");
        }
        if (has(Flaw.FOLDS_CASE)) {
            k = k.toLowerCase(Locale.ROOT);
        }
        if (has(Flaw.TRIMS_SPACES)) {
            k = k.strip();
        }
        if (has(Flaw.TRUNCATES_KEYS) && k.length() > 255) {
            k = k.substring(0, 255);
        }
        return k;
    }

    private long nextToken(String key) {
        if (has(Flaw.REPEATING_TOKENS)) {
            return System.currentTimeMillis();
        }
        return counters.computeIfAbsent(key, ignored -> new AtomicLong()).incrementAndGet();
    }

    private long expiry(long ttlMillis) {
        long ttl = has(Flaw.INT_TTL) ? (int) ttlMillis : ttlMillis;
        return System.nanoTime() + ttl * 1_000_000;
    }

    private AcquireResult refusal(Entry holder, long now) {
        return refusal((holder.expiresAtNanos - now) / 1_000_000);
    }

    /** Not acquired, with how long until the key has room where the store reports it. */
    private AcquireResult refusal(long remainingMillis) {
        if (!capabilities.contains(StoreCapability.REMAINING_LEASE)) {
            return AcquireResult.notAcquired();
        }
        return AcquireResult.notAcquired(remainingMillis);
    }
}
