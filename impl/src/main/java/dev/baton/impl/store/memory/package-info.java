/**
 * The memory store ({@code baton.store=memory}): locks within one JVM, one {@code ConcurrentHashMap.compute}
 * per operation. Depends only on the API, the store SPI and the JDK, like any third-party store.
 */
package dev.baton.impl.store.memory;
