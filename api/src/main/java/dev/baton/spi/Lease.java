package dev.baton.spi;

/**
 * One held lock, as {@link LockStore#renewAll} takes it and returns it. Checks itself when it is built, as
 * {@link Acquisition} does.
 *
 * @param key the key: 1 to {@value LockArguments#MAX_KEY_LENGTH} UTF-16 chars of valid UTF-16
 * @param owner the owner token the lock was acquired with
 */
public record Lease(String key, String owner) {

    /**
     * Checks the components.
     *
     * @param key the key
     * @param owner the owner token
     * @throws IllegalArgumentException naming the component that is wrong
     */
    public Lease {
        LockArguments.requireValidKey(key, true);
        LockArguments.requireValidOwner(owner);
    }
}
