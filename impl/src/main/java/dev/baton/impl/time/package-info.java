/**
 * The time the lock engine keeps (clock, timers, timed waits), injectable so tests can run it virtually.
 * Imports the JDK only.
 */
package dev.baton.impl.time;
