package dev.baton.spi;

/**
 * One call of {@link LockStore#renew(Renewal)}: set {@code owner}'s live lock on {@code key} to expire
 * {@code ttlMillis} from now. Checks itself when it is built, as {@link Acquisition} does.
 *
 * @param key the key: 1 to {@value LockArguments#MAX_KEY_LENGTH} UTF-16 chars of valid UTF-16
 * @param owner the owner token the lock was acquired with
 * @param ttlMillis the new lease: 1 to {@value LockArguments#MAX_DURATION_MILLIS} ms
 * @param maxWaitMillis how long the call may take: 0 to {@value LockArguments#MAX_DURATION_MILLIS} ms (the
 *     runtime passes what is left of the lease), or {@link LockArguments#STORE_BOUND} for the store's own bound
 */
public record Renewal(String key, String owner, long ttlMillis, long maxWaitMillis) {

    /**
     * Checks the components.
     *
     * @param key the key
     * @param owner the owner token
     * @param ttlMillis the new lease in milliseconds
     * @param maxWaitMillis the call's bound, or {@link LockArguments#STORE_BOUND}
     * @throws IllegalArgumentException naming the component that is wrong
     */
    public Renewal {
        LockArguments.requireValidKey(key, true);
        LockArguments.requireValidOwner(owner);
        LockArguments.requireValidTtl(ttlMillis);
        LockArguments.requireValidWait(maxWaitMillis);
    }

    /**
     * A renewal without a bound of the caller's.
     *
     * @param key the key
     * @param owner the owner token
     * @param ttlMillis the new lease in milliseconds
     * @return the request
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public static Renewal of(String key, String owner, long ttlMillis) {
        return new Renewal(key, owner, ttlMillis, LockArguments.STORE_BOUND);
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
