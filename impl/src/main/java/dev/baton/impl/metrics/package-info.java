/**
 * Metrics and trace events of the engines on OpenTelemetry or MicroProfile Metrics, an optional integration:
 * each API's code is loaded only where that API is present.
 */
package dev.baton.impl.metrics;
