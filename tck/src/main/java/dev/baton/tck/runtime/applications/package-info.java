/**
 * Two applications in one server, each with its own copy of Baton in {@code WEB-INF/lib}: each finds its own lock
 * stores and takes its locks, whichever thread context class loader the server leaves on a request thread.
 */
package dev.baton.tck.runtime.applications;
