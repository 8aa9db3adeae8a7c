/**
 * The lock engine: one {@code LockEngine} per lock manager waits, renews, detects loss and releases, on the
 * store SPI. Imports no Jakarta EE or MicroProfile API: the CDI layer adapts it.
 */
package dev.baton.impl.engine;
