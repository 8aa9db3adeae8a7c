/**
 * The store's implementation, not an API: the connector and the statements' paths ({@code StoreConnector}), the
 * table mode's locks, the dialects, the purge, the provider-specific JDBC access (Hibernate ORM, EclipseLink, each
 * loaded only when present), the release listener and the {@code baton.store=jpa} factory. May use the public
 * {@code dev.baton.jpa} types, the Baton API and SPI, JPA and JDBC, and its subpackages.
 */
package dev.baton.jpa.internal;
