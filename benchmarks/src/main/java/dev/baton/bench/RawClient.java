package dev.baton.bench;

/**
 * A raw baseline over a store's own client, for the stores whose backend is not SQL: the two calls a lock cannot
 * do without, with nothing of Baton's (no fencing token read back, no remaining lease, no ttl kept, no bound).
 */
interface RawClient extends AutoCloseable {

    /** Takes the key for {@code owner} if nobody has it: one call. */
    boolean acquire(String key, String owner, long ttlMillis);

    /** Gives the key back: one call. */
    boolean release(String key, String owner);

    @Override
    void close();
}
