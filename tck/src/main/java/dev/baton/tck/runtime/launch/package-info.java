/**
 * Help for starting what the runtime suite runs on, outside the application under test: finding a JDK new
 * enough for a server that needs a newer Java than the build's (Payara Micro 7 and Helidon MP 4 need 21+),
 * a free loopback port, and a child server process whose log is read as it is written.
 */
package dev.baton.tck.runtime.launch;
