package dev.baton.impl.metrics;

import java.util.Optional;

/**
 * The catalogue of Baton's metrics: each metric's name, unit, description and the tag that tells its points
 * apart, read by both {@link OtelMeters} and {@link MpMetricsMeters}, so a metric is named and described in
 * one place. Every metric also carries {@link MeterTag#MANAGER} and {@link MeterTag#STORE}. Plain strings
 * only: this class is loaded whichever metrics API the application has, or none.
 */
enum LockMeter {
    ACQUISITIONS(
            "baton.lock.acquisitions",
            "{acquisition}",
            "Lock acquisitions, by outcome: acquired, timed_out, failed",
            MeterTag.OUTCOME),
    WAITS(
            "baton.lock.wait.duration",
            "s",
            "How long acquisitions took, from the call until acquired, timed out or failed",
            MeterTag.OUTCOME),
    HOLDS("baton.lock.hold.duration", "s", "How long locks were held, from acquisition until given up", null),
    HELD(
            "baton.locks.held",
            "{lock}",
            "Locks held now, from acquisition until released (a lost lock until its holder gives it up)",
            null),
    RENEWALS(
            "baton.lock.renewals",
            "{renewal}",
            "Lease renewals, by outcome: renewed, failed (the store call failed; retried)",
            MeterTag.OUTCOME),
    LOSSES("baton.lock.losses", "{loss}", "Locks lost, by reason", MeterTag.REASON),
    STORE_CALLS(
            "baton.store.call.duration",
            "s",
            "How long calls to the lock store took, by operation",
            MeterTag.OPERATION);

    /** The {@link MeterTag#OUTCOME} of a renewal that renewed. */
    static final String RENEWED = "renewed";
    /** The {@link MeterTag#OUTCOME} of a renewal whose store call failed. */
    static final String RENEWAL_FAILED = "failed";

    private final String metricName;
    private final String unit;
    private final String description;
    private final MeterTag tag;

    LockMeter(String metricName, String unit, String description, MeterTag tag) {
        this.metricName = metricName;
        this.unit = unit;
        this.description = description;
        this.tag = tag;
    }

    /** @return the metric's name, the same in both APIs */
    String metricName() {
        return metricName;
    }

    /**
     * @return the unit in OpenTelemetry's notation (durations in seconds); MicroProfile Metrics keeps none,
     *     its timers having their own
     */
    String unit() {
        return unit;
    }

    /** @return the description, the same in both APIs */
    String description() {
        return description;
    }

    /** @return the tag besides the manager and the store, if the metric has one */
    Optional<MeterTag> tag() {
        return Optional.ofNullable(tag);
    }

    /** A tag (an attribute in OpenTelemetry) of Baton's metrics and span events. */
    enum MeterTag {
        MANAGER("baton.manager"),
        STORE("baton.store"),
        OUTCOME("baton.outcome"),
        REASON("baton.loss.reason"),
        OPERATION("baton.store.operation");

        private final String attribute;

        MeterTag(String attribute) {
            this.attribute = attribute;
        }

        /** @return its name as an OpenTelemetry attribute */
        String attribute() {
            return attribute;
        }

        /**
         * @return its name as a MicroProfile Metrics tag, which cannot hold dots: underscores instead, which is
         *     also what OpenTelemetry's Prometheus exporter makes of the attribute
         */
        String tagName() {
            return attribute.replace('.', '_');
        }
    }
}
