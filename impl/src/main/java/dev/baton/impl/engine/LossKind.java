package dev.baton.impl.engine;

/** Why a lock was lost, in a few kinds an operator can count (the full reason goes to the holder and the log). */
public enum LossKind {
    /** The store answered that the owner no longer holds the key (its lease expired, or it was freed by force). */
    DISOWNED("disowned"),
    /** Renewals failed until the lease was over. */
    RENEWALS_FAILED("renewals_failed"),
    /** A renewal was sent and had not come back when the lease ended: a slow or unreachable store. */
    STORE_TOO_SLOW("store_too_slow"),
    /** The renewal timer ran late: the process was not running (a GC pause, a stopped VM). */
    PROCESS_PAUSED("process_paused"),
    /** No renewal was sent in time: the renewal threads were starved. */
    RENEWAL_NOT_SENT("renewal_not_sent"),
    /** The application is shutting down. */
    SHUTDOWN("shutdown");

    private final String label;

    LossKind(String label) {
        this.label = label;
    }

    /** @return the kind as a metric attribute value */
    public String label() {
        return label;
    }
}
