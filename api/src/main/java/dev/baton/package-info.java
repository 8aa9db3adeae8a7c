/**
 * Baton's public API: distributed locks for Jakarta EE and MicroProfile.
 *
 * <ul>
 * <li>{@link dev.baton.Synchronized} runs a method under a lock;</li>
 * <li>{@link dev.baton.Exclusive} runs a scheduled method in one instance per planned time;</li>
 * <li>{@link dev.baton.Locks} takes locks programmatically and returns {@link dev.baton.Lock}s;</li>
 * <li>the exceptions all extend {@link dev.baton.LockException};</li>
 * <li>{@link dev.baton.event} holds the CDI events; {@link dev.baton.spi} the store contract.</li>
 * </ul>
 */
package dev.baton;
