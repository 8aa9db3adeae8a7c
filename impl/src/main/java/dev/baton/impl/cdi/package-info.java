/**
 * The CDI adapters: the portable and build-compatible extensions, the interceptors, {@code LockRuntime} (one
 * engine per lock manager), the store plan, bean lookup and the lock events. The one core package that uses the
 * CDI API; it assembles the others, and only the optional integrations (health) depend on it.
 */
package dev.baton.impl.cdi;
