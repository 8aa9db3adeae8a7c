/**
 * The contract of lock stores: {@link dev.baton.spi.LockStore} (three atomic operations),
 * {@link dev.baton.spi.LockStoreFactory} (creation from configuration) and the shared argument
 * rules in {@link dev.baton.spi.LockArguments}. Verify a store with the TCK.
 */
package dev.baton.spi;
