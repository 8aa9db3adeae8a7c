package dev.baton.impl.engine;

import dev.baton.spi.KeyFormat;

/**
 * What one lock manager's engine reports for metrics. The engine knows no metrics library; an
 * implementation records these where one is present, {@link #NONE} where not. Called on the threads that
 * acquire, release and renew: implementations must be fast and must not throw.
 */
public interface EngineMetrics {

    /** How an acquisition ended. */
    enum Outcome {
        ACQUIRED("acquired"),
        /** Not acquired in time, or at once without waiting. */
        TIMED_OUT("timed_out"),
        /** The store failed, the thread was interrupted, asked for a key it held, or the manager was shut down. */
        FAILED("failed");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        /** @return the outcome as a metric attribute value */
        public String label() {
            return label;
        }
    }

    /** Records nothing. */
    EngineMetrics NONE = new EngineMetrics() {};

    /**
     * @param outcome how it ended
     * @param waitNanos from the call until then
     */
    default void acquisition(Outcome outcome, long waitNanos) {}

    /**
     * The calling thread just acquired {@code key}: where it runs under a trace span, the span may record
     * it (with the key: spans are per request, not aggregated like metrics). The key is written in the form of
     * {@code baton.log.keys} (a span leaves the process like a log line), and only where a span records it: a hash
     * costs a digest, which an acquisition without a recording span must not pay.
     *
     * @param key the application's key
     * @param keyFormat how the key is written ({@code baton.log.keys})
     * @param fencingToken the acquisition's token
     */
    default void acquiredOnThisThread(String key, KeyFormat keyFormat, long fencingToken) {}

    /** A lock is now held by this manager (until {@link #released}). */
    default void holding() {}

    /**
     * A lock this manager held is given up here: released, left to expire, or kept until a set time.
     *
     * @param holdNanos from its acquisition until now
     */
    default void released(long holdNanos) {}

    /**
     * @param renewed how many leases one renewal call renewed
     * @param failed how many it failed to renew (the call failed)
     */
    default void renewals(int renewed, int failed) {}

    /** @param kind why a lock was lost */
    default void lost(LossKind kind) {}

    /**
     * @param operation the store operation ({@code acquire}, {@code renew}, {@code renew_all}, {@code release},
     *     {@code hand_over}, {@code inspect}, {@code leave_turn})
     * @param nanos how long the call took, failed or not
     */
    default void storeCall(String operation, long nanos) {}
}
