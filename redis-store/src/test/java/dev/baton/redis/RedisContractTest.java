package dev.baton.redis;

import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;

/**
 * The TCK's store contract on the test Redis (embedded Redis 6.2, or the server
 * {@code BATON_TEST_REDIS_URL} names): every call a new store instance, with a client of its own, on the
 * same server and key prefix.
 */
class RedisContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return TestRedis.store("tck");
    }
}
