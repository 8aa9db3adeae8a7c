/**
 * MicroProfile Health checks (store readiness, renewal liveness), an optional integration: added by its
 * extension only where the Health API is present. May import the CDI layer.
 */
package dev.baton.impl.health;
