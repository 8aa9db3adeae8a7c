/**
 * The store's implementation, not an API: the lease and its grace, the lock transactions and their timers, the
 * release watch, key names and the {@code baton.store=etcd} factory. May use the public {@code dev.baton.etcd}
 * types, the Baton API and SPI, and the jetcd client.
 */
package dev.baton.etcd.internal;
