/**
 * The JAX-RS mapper of {@link dev.baton.LockTimeoutException} to {@code 409 Conflict}, an optional integration
 * registered only where JAX-RS is present. Imports the API, JAX-RS and (when present) JSON-P.
 */
package dev.baton.impl.jaxrs;
