/**
 * The store's implementation, not an API: the session and its grace, the lock transactions and their timers, the
 * release watch, key paths, log ids and the {@code baton.store=zookeeper} factory. May use the public
 * {@code dev.baton.zookeeper} types, the Baton API and SPI, and the ZooKeeper client.
 */
package dev.baton.zookeeper.internal;
