/**
 * The Redis lock store's public API: {@link dev.baton.redis.RedisLockStore} and its builder. Uses the Baton API
 * and SPI, Lettuce, and the store's {@code internal} package, which no application should name.
 */
package dev.baton.redis;
