/**
 * Classes the runtime scenarios deploy with their applications: a JAX-RS activator, a probe that
 * counts how many callers are inside a section at once, a gate a test opens to release a holder,
 * and the in-memory lock table of the scenarios' own {@code LockStore} beans. Nothing here measures
 * time: exclusion is proven by the application's own counts.
 */
package dev.baton.tck.runtime.support;
