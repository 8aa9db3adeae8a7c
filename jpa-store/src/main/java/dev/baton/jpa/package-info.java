/**
 * The JPA lock store's public API: {@link dev.baton.jpa.JpaLockStore} and its builder, its modes, schema actions,
 * transaction hooks and the fenced-writes helper. Uses the Baton API and SPI, JPA and JDBC, and the store's
 * {@code internal} packages, which no application should name.
 */
package dev.baton.jpa;
