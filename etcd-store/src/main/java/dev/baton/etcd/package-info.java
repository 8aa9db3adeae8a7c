/**
 * The etcd lock store's public API: {@link dev.baton.etcd.EtcdLockStore} and its builder. Uses the Baton API and
 * SPI, the jetcd client, and the store's {@code internal} package, which no application should name.
 */
package dev.baton.etcd;
