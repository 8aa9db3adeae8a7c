/**
 * The schema check run once per store when it connects: the lock table, its key column and the fencing sequence
 * are as exclusion and fencing need, per database. Uses the Baton API and the public {@code dev.baton.jpa} types
 * only.
 */
package dev.baton.jpa.internal.schema;
