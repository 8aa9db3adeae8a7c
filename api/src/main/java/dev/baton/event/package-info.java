/**
 * CDI events about locks. Observe them with {@code @Observes} or {@code @ObservesAsync}; both kinds
 * are fired for every event.
 */
package dev.baton.event;
