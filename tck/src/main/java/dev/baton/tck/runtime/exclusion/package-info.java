/**
 * {@code @Synchronized} excludes concurrent HTTP requests on a CDI bean (its key from a template or
 * from a key resolver bean), a stateless EJB and a JAX-RS resource method: many requests for one key
 * are all served, and the application never sees two of them inside the method at once.
 */
package dev.baton.tck.runtime.exclusion;
