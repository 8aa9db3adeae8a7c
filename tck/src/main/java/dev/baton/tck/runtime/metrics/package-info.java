/**
 * Baton's metrics on a real server: after a scripted workload the server's {@code /metrics} shows exactly the
 * acquisitions and timeouts made (tag {@code metrics}); {@link dev.baton.tck.runtime.metrics.PrometheusText}
 * reads the exposition.
 */
package dev.baton.tck.runtime.metrics;
