/**
 * Baton in an EAR: the Baton jars in the EAR's {@code lib/}, {@code @Synchronized} on a stateless EJB in an EJB
 * module and on a JAX-RS resource in a web module of the same application. Both take their locks from one lock
 * runtime: requests for one key through either module never overlap, and their fencing tokens come from one
 * sequence.
 */
package dev.baton.tck.runtime.ear;
