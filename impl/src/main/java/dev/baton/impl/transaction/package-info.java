/**
 * Releases deferred to the end of the caller's JTA transaction, and the veto on committing under a lost lock.
 * Only {@code JtaTransactionSupport} names JTA types, and it is loaded only where JTA is present.
 */
package dev.baton.impl.transaction;
