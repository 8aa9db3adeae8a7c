/**
 * The ZooKeeper lock store's public API: {@link dev.baton.zookeeper.ZooKeeperLockStore} and its builder. Uses the
 * Baton API and SPI, the ZooKeeper client, and the store's {@code internal} package, which no application should
 * name.
 */
package dev.baton.zookeeper;
