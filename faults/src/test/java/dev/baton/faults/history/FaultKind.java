package dev.baton.faults.history;

/** What the nemesis does. */
public enum FaultKind {
    /** {@code SIGKILL} of a worker (usually the holder of a key). */
    KILL9("kill9", false),
    /** {@code SIGTERM} of a worker: a graceful exit. */
    TERM("term", false),
    /** {@code SIGSTOP} longer than the ttl, then {@code SIGCONT}. */
    STOP("stop", true),
    /** The worker's link to the store stops forwarding, without closing. */
    PARTITION("partition", true),
    /** The worker's link to the store delays every chunk. */
    SLOW("slow", true),
    /**
     * The database ends a holder's sessions ({@code pg_terminate_backend}, MariaDB {@code KILL}): in advisory
     * mode its session locks end at once, while the holder learns it at its next renewal.
     */
    SESSION_KILL("session-kill", true),
    /** The store's server stops at once (a database's immediate shutdown, Redis {@code kill -9}) and starts again. */
    DB_RESTART("db-restart", false),
    /** The database is down for longer than the ttl. */
    DB_OUTAGE("db-outage", false),
    /** The store's server ({@code redis-server}) is paused with {@code SIGSTOP} for longer than the ttl. */
    STORE_STOP("store-stop", false),
    /**
     * The waiters' release-notification subscriptions stop forwarding (connections stay open): waiters
     * learn of releases only by polling. Excuses nothing.
     */
    SUBSCRIPTION_CUT("sub-cut", false),
    /**
     * Code inside a worker's JVM reads the store's lock files (open, read, close), as a backup or a
     * monitoring agent in the application would. Excuses nothing.
     */
    READER("reader", false),
    /**
     * One member of the store's cluster (a ZooKeeper ensemble, an etcd cluster) is killed ({@code SIGKILL}) and
     * started again a while later; the others keep their quorum. It explains nothing: no holder may lose its lock
     * to another while a quorum serves.
     */
    MEMBER_KILL("member-kill", false);

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

    /**
     * @return whether it pauses or cuts off one worker from the store (and so may explain that worker
     *     losing its lock)
     */
    public boolean pausesOneProcess() {
        return ofOneProcess;
    }

    /** @return whether it concerns the store's server (and so every worker) */
    public boolean ofDatabase() {
        return this == DB_RESTART || this == DB_OUTAGE || this == STORE_STOP;
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
