/**
 * Security before the lock: a session bean method with {@code @RolesAllowed} and {@code @Synchronized} refuses
 * a caller without the role before its lock is taken (the deployment's counting store is never asked), and a
 * caller with the role ({@code @RunAs}) reaches the store.
 */
package dev.baton.tck.runtime.security;
