package dev.baton.redis;

import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;

/**
 * The TCK's store properties on the test Redis of {@link RedisContractTest} (embedded Redis 6.2, or the server
 * {@code BATON_TEST_REDIS_URL} names): each sequence on a new store instance, with a client of its own, on the same
 * server and key prefix (each sequence with keys of its own). Redis keeps time with its own clock, so every lease
 * and turn outlives its sequence (the contract suite checks expiry).
 */
class RedisStorePropertiesTest extends StoreProperties {

    @Override
    protected LockStore createStore() {
        return TestRedis.store("properties");
    }
}
