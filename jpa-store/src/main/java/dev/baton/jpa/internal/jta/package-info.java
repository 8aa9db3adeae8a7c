/**
 * Jakarta EE glue loaded only where JTA and CDI are present: the CDI extension and the suspender that keeps the
 * store's connections out of the caller's transaction. Uses the public {@code dev.baton.jpa} types only.
 */
package dev.baton.jpa.internal.jta;
