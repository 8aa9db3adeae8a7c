package dev.baton.event;

/**
 * Fired (synchronously and asynchronously) when a lock was acquired.
 *
 * @param manager the lock manager's name, empty for the default
 * @param key the key, without the manager's prefix
 * @param fencingToken the token of the acquisition
 */
public record LockAcquired(String manager, String key, long fencingToken) {}
