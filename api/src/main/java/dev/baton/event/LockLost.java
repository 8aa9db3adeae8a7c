package dev.baton.event;

import dev.baton.LockLostException;

/**
 * Fired (synchronously and asynchronously) when a held lock was lost: its renewal failed until the
 * lease was over, or the store reported another owner.
 *
 * @param manager the lock manager's name, empty for the default
 * @param key the key, without the manager's prefix
 * @param fencingToken the token of the lost acquisition
 * @param reason why it was lost
 */
public record LockLost(String manager, String key, long fencingToken, LockLostException reason) {}
