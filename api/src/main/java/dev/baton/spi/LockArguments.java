package dev.baton.spi;

/**
 * The argument rules of the store SPI, with messages that name what was wrong. The requests
 * ({@link Acquisition}, {@link Renewal}, {@link Lease}) check themselves with them when they are built, and
 * the runtime checks the keys and owners of the other operations with them before it calls a store, so a
 * store need not check its arguments again.
 */
public final class LockArguments {

    /** The longest key, in UTF-16 chars, once the manager's prefix is applied. */
    public static final int MAX_KEY_LENGTH = 500;

    /** The longest owner token, in chars. */
    public static final int MAX_OWNER_LENGTH = 64;

    /** The longest ttl or timeout: 365 days in milliseconds. */
    public static final long MAX_DURATION_MILLIS = 365L * 24 * 60 * 60 * 1000;

    /**
     * The {@code maxWaitMillis} of a request whose caller sets no bound: the store bounds the call by its
     * own default (the JPA store by its statement timeout, the Redis store by its command timeout).
     */
    public static final long STORE_BOUND = -1;

    private LockArguments() {}

    /**
     * Checks a key: not null, 1 to {@value #MAX_KEY_LENGTH} chars, no lone surrogate; and no
     * {@code U+0000} unless {@code nulAllowed}.
     *
     * @param key the key
     * @param nulAllowed whether the store can store {@code U+0000} exactly
     * @return the key
     * @throws IllegalArgumentException naming the problem
     */
    public static String requireValidKey(String key, boolean nulAllowed) {
        if (key == null) {
            throw new IllegalArgumentException("lock key must not be null");
        }
        int length = key.length();
        if (length == 0) {
            throw new IllegalArgumentException("lock key must not be empty");
        }
        if (length > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("lock key is " + length + " chars long, at most " + MAX_KEY_LENGTH
                    + " are allowed: '" + key.substring(0, 40) + "...'");
        }
        for (int i = 0; i < length; i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < length && Character.isLowSurrogate(key.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new IllegalArgumentException(
                        "lock key has a lone high surrogate at index " + i + " (invalid UTF-16)");
            }
            if (Character.isLowSurrogate(c)) {
                throw new IllegalArgumentException(
                        "lock key has a lone low surrogate at index " + i + " (invalid UTF-16)");
            }
            if (c == '\0' && !nulAllowed) {
                throw new IllegalArgumentException(
                        "lock key has a NUL character (U+0000) at index " + i + ", which this store cannot keep");
            }
        }
        return key;
    }

    /**
     * Checks an owner token: 1 to {@value #MAX_OWNER_LENGTH} printable ASCII chars.
     *
     * @param owner the owner
     * @return the owner
     * @throws IllegalArgumentException naming the problem
     */
    public static String requireValidOwner(String owner) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("lock owner must not be null or empty");
        }
        if (owner.length() > MAX_OWNER_LENGTH) {
            throw new IllegalArgumentException(
                    "lock owner is " + owner.length() + " chars long, at most " + MAX_OWNER_LENGTH + " are allowed");
        }
        for (int i = 0; i < owner.length(); i++) {
            char c = owner.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException(
                        "lock owner must be printable ASCII; char " + (int) c + " at index " + i);
            }
        }
        return owner;
    }

    /**
     * Checks a ttl: 1 to {@value #MAX_DURATION_MILLIS} ms.
     *
     * @param ttlMillis the ttl
     * @return the ttl
     * @throws IllegalArgumentException naming the problem
     */
    public static long requireValidTtl(long ttlMillis) {
        if (ttlMillis <= 0) {
            throw new IllegalArgumentException("ttl must be at least 1 ms, was " + ttlMillis + " ms");
        }
        if (ttlMillis > MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException(
                    "ttl must be at most " + MAX_DURATION_MILLIS + " ms (365 days), was " + ttlMillis + " ms");
        }
        return ttlMillis;
    }

    /**
     * Checks a call's bound: 0 to {@value #MAX_DURATION_MILLIS} ms, or {@link #STORE_BOUND}.
     *
     * @param maxWaitMillis the bound
     * @return the bound
     * @throws IllegalArgumentException naming the problem
     */
    public static long requireValidWait(long maxWaitMillis) {
        if (maxWaitMillis == STORE_BOUND) {
            return maxWaitMillis;
        }
        if (maxWaitMillis < 0 || maxWaitMillis > MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException("maxWaitMillis must be between 0 and " + MAX_DURATION_MILLIS
                    + " ms, or LockArguments.STORE_BOUND (" + STORE_BOUND + "), was " + maxWaitMillis);
        }
        return maxWaitMillis;
    }

    /**
     * A call's bound as the store applies it: the caller's, or the store's own when the caller set none.
     *
     * @param maxWaitMillis the caller's bound, or {@link #STORE_BOUND}
     * @param storeBoundMillis the bound the store applies to a call without one
     * @return {@code maxWaitMillis}, or {@code storeBoundMillis} if it is {@link #STORE_BOUND}
     */
    public static long boundOr(long maxWaitMillis, long storeBoundMillis) {
        return maxWaitMillis == STORE_BOUND ? storeBoundMillis : maxWaitMillis;
    }
}
