/**
 * Baton's configuration, read from MicroProfile Config once at deployment and validated: settings per lock
 * manager, per-method overrides, the list of known keys. Imports MicroProfile Config and no other Jakarta EE
 * or MicroProfile API.
 */
package dev.baton.impl.config;
