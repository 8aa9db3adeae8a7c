package dev.baton.event;

/**
 * Fired (synchronously and asynchronously) when a held lock was released.
 *
 * @param manager the lock manager's name, empty for the default
 * @param key the key, without the manager's prefix
 * @param fencingToken the token of the released acquisition
 */
public record LockReleased(String manager, String key, long fencingToken) {}
