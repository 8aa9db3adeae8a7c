/**
 * The plan of each {@code @Synchronized} method, built and validated at deployment from its annotation and its
 * configuration overrides: key source, manager, ttl, timeout, poll policy. Imports no CDI: the CDI layer feeds
 * it and passes in how a key resolver bean is found.
 */
package dev.baton.impl.plan;
