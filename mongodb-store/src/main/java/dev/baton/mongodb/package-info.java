/**
 * The MongoDB lock store's public API: {@link dev.baton.mongodb.MongoLockStore} and its builder. Uses the Baton API
 * and SPI, the MongoDB Java driver, and the store's {@code internal} package, which no application should name.
 */
package dev.baton.mongodb;
