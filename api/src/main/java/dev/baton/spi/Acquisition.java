package dev.baton.spi;

/**
 * One call of {@link LockStore#acquire(Acquisition)}: take {@code key} for {@code owner} for {@code ttlMillis}.
 * A request checks itself when it is built, so a store receives only valid ones and checks nothing again;
 * the runtime builds them, and refuses, before any store is called, a key with {@code U+0000} for a store
 * that does not declare {@link StoreCapability#NUL_IN_KEYS}.
 *
 * @param key the key: 1 to {@value LockArguments#MAX_KEY_LENGTH} UTF-16 chars of valid UTF-16
 * @param owner the owner token of this acquisition: 1 to {@value LockArguments#MAX_OWNER_LENGTH} printable
 *     ASCII chars
 * @param ttlMillis the lease: 1 to {@value LockArguments#MAX_DURATION_MILLIS} ms
 * @param maxWaitMillis how long the call may wait for someone else's lock on the key's record and for the
 *     backend: 0 to {@value LockArguments#MAX_DURATION_MILLIS} ms ({@code 0}: do not wait for anyone's lock,
 *     as {@code tryAcquire}), or {@link LockArguments#STORE_BOUND} when the caller has no bound and the store
 *     applies its own (the JPA store's statement timeout, for one)
 * @param turn the caller's claim on the key's next turn while it waits, for stores that declare
 *     {@link StoreCapability#WAITING_TURNS} (others ignore it); {@code null} for a caller that does not wait
 *     its turn
 * @param sharedLimit {@link #EXCLUSIVE} ({@code 0}) for an exclusive acquisition, taken only while no live lease
 *     of any kind holds the key: a mutex, a write lock. From 1 to {@link #UNLIMITED} for a shared one, for stores
 *     that declare {@link StoreCapability#SHARED_LOCKS}: taken while no live exclusive lease and fewer than
 *     {@code sharedLimit} live shared leases hold the key (a key with N permits: N; a read lock:
 *     {@link #UNLIMITED}). Each acquisition is judged by its own limit, so lowering a key's limit lets the
 *     holders above it keep their leases until they release them or they expire.
 */
public record Acquisition(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn, int sharedLimit) {

    /** The {@link #sharedLimit()} of an exclusive acquisition. */
    public static final int EXCLUSIVE = 0;

    /** The {@link #sharedLimit()} of a shared acquisition without a limit: a read lock. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /**
     * Checks the components.
     *
     * @param key the key
     * @param owner the owner token
     * @param ttlMillis the lease in milliseconds
     * @param maxWaitMillis the call's bound, or {@link LockArguments#STORE_BOUND}
     * @param turn the waiter's claim on the next turn, or {@code null}
     * @param sharedLimit {@link #EXCLUSIVE}, or from 1 to {@link #UNLIMITED} for a shared acquisition
     * @throws IllegalArgumentException naming the component that is wrong
     */
    public Acquisition {
        LockArguments.requireValidKey(key, true);
        LockArguments.requireValidOwner(owner);
        LockArguments.requireValidTtl(ttlMillis);
        LockArguments.requireValidWait(maxWaitMillis);
        if (sharedLimit < 0) {
            throw new IllegalArgumentException(
                    "sharedLimit must be 0 (exclusive) or from 1 to " + UNLIMITED + " (shared), was " + sharedLimit);
        }
    }

    /**
     * An exclusive acquisition.
     *
     * @param key the key
     * @param owner the owner token
     * @param ttlMillis the lease in milliseconds
     * @param maxWaitMillis the call's bound, or {@link LockArguments#STORE_BOUND}
     * @param turn the waiter's claim on the next turn, or {@code null}
     * @throws IllegalArgumentException naming the component that is wrong
     */
    public Acquisition(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn) {
        this(key, owner, ttlMillis, maxWaitMillis, turn, EXCLUSIVE);
    }

    /**
     * Whether this acquisition is shared (its {@link #sharedLimit()} is not {@link #EXCLUSIVE}).
     *
     * @return true for a shared acquisition
     */
    public boolean isShared() {
        return sharedLimit != EXCLUSIVE;
    }

    /**
     * An acquisition without a bound of the caller's and without a turn.
     *
     * @param key the key
     * @param owner the owner token
     * @param ttlMillis the lease in milliseconds
     * @return the request
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public static Acquisition of(String key, String owner, long ttlMillis) {
        return new Acquisition(key, owner, ttlMillis, LockArguments.STORE_BOUND, null);
    }

    /**
     * An acquisition bounded by {@code maxWaitMillis}, without a turn.
     *
     * @param key the key
     * @param owner the owner token
     * @param ttlMillis the lease in milliseconds
     * @param maxWaitMillis how long the call may wait, {@code >= 0}
     * @return the request
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public static Acquisition of(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return new Acquisition(key, owner, ttlMillis, maxWaitMillis, null);
    }

    /**
     * The call's bound, or the store's own when the caller set none.
     *
     * @param storeBoundMillis the bound the store applies to a call without one
     * @return {@link #maxWaitMillis()}, or {@code storeBoundMillis} if it is {@link LockArguments#STORE_BOUND}
     */
    public long maxWaitMillisOr(long storeBoundMillis) {
        return LockArguments.boundOr(maxWaitMillis, storeBoundMillis);
    }
}
