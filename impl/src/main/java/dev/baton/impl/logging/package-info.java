/**
 * Baton's log messages with their stable ids ({@code BATON-nnn}), on {@link System.Logger}. Imports the JDK
 * only.
 */
package dev.baton.impl.logging;
