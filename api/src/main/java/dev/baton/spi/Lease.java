package dev.baton.spi;

/**
 * One held lock, as {@link LockStore#renewAll} takes it.
 *
 * @param key the key
 * @param owner the owner token
 */
public record Lease(String key, String owner) {}
