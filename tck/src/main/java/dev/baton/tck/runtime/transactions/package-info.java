/**
 * Release after commit: concurrent {@code @Transactional} and container-managed EJB increments of
 * one database row under {@code @Synchronized}, or under {@code Locks.callWithLock} inside
 * {@code @Transactional}, lose no update, because each holder releases the lock only after its
 * transaction committed, so the next one reads the committed value; also when the application's first
 * lock was taken at startup on a plain thread of its own. A lock lost before the commit rolls the
 * transaction back. The deployments use the platform's default data source
 * ({@code java:comp/DefaultDataSource}).
 */
package dev.baton.tck.runtime.transactions;
