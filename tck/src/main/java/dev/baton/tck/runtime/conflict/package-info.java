/**
 * A request that does not get its lock in time is answered 409 Conflict with a body naming the key;
 * {@code await = false} answers at once; the wait comes from {@code microprofile-config.properties},
 * per method ({@code <class>/<method>/Synchronized/timeout}) over the global {@code baton.timeout}.
 */
package dev.baton.tck.runtime.conflict;
