/**
 * A lost lock is signalled to its holder: a {@code LockLost} event, {@code isHeld()} false,
 * {@code whenLost()} completed, {@code checkHeld()} throwing, and with {@code baton.interrupt-on-loss}
 * the work's thread interrupted. No transactions needed (the rollback part is in
 * {@code transactions.LostLockRollbackTest}).
 */
package dev.baton.tck.runtime.loss;
