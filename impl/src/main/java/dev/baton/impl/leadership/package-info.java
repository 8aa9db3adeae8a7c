/**
 * Leader elections on the lock engine: a candidacy per name ({@link dev.baton.impl.leadership.Candidacy})
 * stands by for the election's lock, leads while it holds it, and tells of its terms. Depends on the engine
 * and the API; no Jakarta EE (the CDI layer turns its notifications into events).
 */
package dev.baton.impl.leadership;
