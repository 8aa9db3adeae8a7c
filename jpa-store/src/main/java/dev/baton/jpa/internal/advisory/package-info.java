/**
 * The advisory mode: each held key a database session lock on a connection of this instance (PostgreSQL,
 * MariaDB). Uses {@code dev.baton.jpa.internal} (connector, dialect, dedicated connections), never the other way.
 */
package dev.baton.jpa.internal.advisory;
