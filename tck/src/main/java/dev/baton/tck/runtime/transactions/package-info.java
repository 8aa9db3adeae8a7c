/**
 * Release after commit: concurrent {@code @Transactional} and container-managed EJB increments of
 * one database row under {@code @Synchronized} lose no update, because each holder releases the
 * lock only after its transaction committed, so the next one reads the committed value. The
 * deployments use the platform's default data source ({@code java:comp/DefaultDataSource}).
 */
package dev.baton.tck.runtime.transactions;
