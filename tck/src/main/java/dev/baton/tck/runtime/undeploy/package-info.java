/**
 * Release on undeploy: the locks an application still holds when it is undeployed (several of the
 * default manager, one with an hour's lease, one of a named manager) are released by Baton's shutdown,
 * each by its owner, and not left to run out. The application's store journals every call to a file
 * the test reads, so the server must share the test's file system (see
 * {@link dev.baton.tck.runtime.RuntimeTck#workDirectory()}).
 */
package dev.baton.tck.runtime.undeploy;
