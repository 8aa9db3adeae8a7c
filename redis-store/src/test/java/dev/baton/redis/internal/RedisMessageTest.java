package dev.baton.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Each message of the registry reads as the store wrote it before the registry (the expected texts are the
 * concatenations it used), so operators' searches and alerts keep matching.
 */
class RedisMessageTest {

    @Test
    void textsAreTheStoresOwn() {
        Object connector = "redis://127.0.0.1:6379";
        assertThat(RedisMessage.CONNECTED.format(connector)).isEqualTo("BATON-REDIS-001 connected to " + connector);
        String message = "it's {0} down";
        assertThat(RedisMessage.NOT_SUBSCRIBED.format(message))
                .isEqualTo("BATON-REDIS-002 Not subscribed to release notifications yet (" + message
                        + "); trying again at the next operation, waiters poll meanwhile");
        assertThat(RedisMessage.LISTENER_FAILED.format()).isEqualTo("BATON-REDIS-003 A release listener failed");
        String evicting = "127.0.0.1:6379 has maxmemory-policy allkeys-lru";
        assertThat(RedisMessage.EVICTION_ALLOWED.format(evicting))
                .isEqualTo("BATON-REDIS-004 Redis " + evicting + ", allowed by allow-eviction: a full Redis"
                        + " may evict a held lock's record, and another owner then takes the key during the"
                        + " holder's lease");
        String unknown = "127.0.0.1:6379, 127.0.0.1:6380";
        assertThat(RedisMessage.POLICY_UNKNOWN.format(unknown))
                .isEqualTo("BATON-REDIS-005 the maxmemory-policy of Redis " + unknown
                        + " is unknown (neither CONFIG GET nor INFO memory told it): the store starts; make"
                        + " sure it is noeviction, or a full Redis may evict held locks' records");
    }
}
