/**
 * The store's implementation, not an API: the document layout and its atomic updates, the lazy connection with its
 * deadlines and TTL indexes, the operations, the settings' checks, log ids and the {@code baton.store=mongodb}
 * factory. May use the public {@code dev.baton.mongodb} types, the Baton API and SPI, and the MongoDB driver.
 */
package dev.baton.mongodb.internal;
