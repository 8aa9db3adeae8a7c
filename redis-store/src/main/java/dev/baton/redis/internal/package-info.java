/**
 * The store's implementation, not an API: the settings the builder checked, the connection with its deadlines and
 * error classification, the Lua scripts and their calls, the release subscription, the eviction-policy check, the
 * log ids and the {@code baton.store=redis} factory. May use the public {@code dev.baton.redis} types, the Baton
 * API and SPI, and Lettuce.
 */
package dev.baton.redis.internal;
