/** A {@code @Synchronized} template that names nothing resolvable fails the deployment. */
package dev.baton.tck.runtime.definition;
