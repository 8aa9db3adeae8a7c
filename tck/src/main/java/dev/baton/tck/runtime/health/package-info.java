/** MicroProfile Health on a real server: Baton's readiness check follows its lock store (tag {@code health}). */
package dev.baton.tck.runtime.health;
