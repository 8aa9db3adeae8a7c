/**
 * Runtime wiring that needs no CDI: the store factories found by {@code ServiceLoader} and their contexts on the
 * configuration, stores shared by several managers, the renewal executors, the {@code Locks} of a manager
 * without a store, detection of optional APIs, the server contexts a Baton thread enters for a caller (Helidon). Imports no CDI; the CDI layer assembles it.
 */
package dev.baton.impl.runtime;
