package dev.baton.faults.history;

/** What the nemesis does. */
public enum FaultKind {
    /** {@code SIGKILL} of a worker (usually the holder of a key). */
    KILL9("kill9", false),
    /** {@code SIGTERM} of a worker: a graceful exit. */
    TERM("term", false),
    /** {@code SIGSTOP} longer than the ttl, then {@code SIGCONT}. */
    STOP("stop", true),
    /** The worker's link to the database stops forwarding, without closing. */
    PARTITION("partition", true),
    /** The worker's link to the database delays every chunk. */
    SLOW("slow", true),
    /** The database stops at once (immediate shutdown) and starts again. */
    DB_RESTART("db-restart", false),
    /** The database is down for longer than the ttl. */
    DB_OUTAGE("db-outage", false);

    private final String label;
    private final boolean ofOneProcess;

    FaultKind(String label, boolean pausesOneProcess) {
        this.label = label;
        this.ofOneProcess = pausesOneProcess;
    }

    /** @return the name in histories */
    public String label() {
        return label;
    }

    /** @return whether it pauses or cuts off one worker (and so may explain that worker losing its lock) */
    public boolean pausesOneProcess() {
        return ofOneProcess;
    }

    /** @return whether it concerns the database (and so every worker) */
    public boolean ofDatabase() {
        return this == DB_RESTART || this == DB_OUTAGE;
    }

    /**
     * @param label a name in a history
     * @return the kind
     */
    public static FaultKind of(String label) {
        for (FaultKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown fault kind '" + label + "'");
    }
}
