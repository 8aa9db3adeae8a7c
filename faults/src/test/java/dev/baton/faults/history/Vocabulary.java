package dev.baton.faults.history;

/**
 * The event types and field names the workers, the nemesis and the checker share. Every worker line
 * carries {@code pid}; the lines of a critical section also {@code thr} (thread), {@code key} and
 * {@code tok} (fencing token), which together name the section.
 */
public final class Vocabulary {

    // worker events
    /** A worker started: {@code pid}, {@code slot}, {@code ttl} (ms). */
    public static final String START = "start";
    /**
     * A critical section began: {@code api} ({@code sync} or {@code call}), {@code req} (nano when the lock was asked
     * for); in shared mode also {@code mode} ({@value #PERMIT}, {@value #READ} or {@value #WRITE}) and, for a
     * permit, {@code limit} (the permits of the key).
     */
    public static final String ENTER = "enter";
    /** The fenced write's outcome: {@code rows} (1 accepted, 0 refused by the fence), or {@code err}. */
    public static final String FENCED = "fenced";
    /** The unfenced read-modify-write: {@code read}, {@code wrote}, or {@code err}. */
    public static final String COUNTER = "counter";
    /** A critical section ended: {@code held} ({@code isHeld()} at its end). */
    public static final String EXIT = "exit";
    /** An acquisition failed with a documented {@code LockException}: {@code key}, {@code req}, {@code ex}, {@code msg}. */
    public static final String FAIL = "fail";
    /** Baton threw something that is not a {@code LockException}: {@code ex}, {@code msg}. */
    public static final String ERROR = "error";
    /** {@code whenLost()} completed: {@code key}, {@code tok}, {@code reason}. */
    public static final String LOST = "lost";
    /**
     * A term of the run's election began (a {@code LeadershipGranted} event): {@code name}, {@code tok}. The
     * leader's actions are sections of the key {@value #LEADER_KEY}, thread {@value #LEADER_THREAD}.
     */
    public static final String GRANTED = "granted";
    /** A term ended (a {@code LeadershipRevoked} event, before the lock is released): {@code name}, {@code tok}, {@code reason}. */
    public static final String REVOKED = "revoked";
    /** A leader action was still running when its term's revocation stopped waiting for it: {@code tok}, {@code waited} (ms). */
    public static final String STILL_ACTING = "acting";
    /** The process did not run for {@code ms} milliseconds, ending at this event's time. */
    public static final String HICCUP = "hiccup";
    /** The worker read the file store's lock files from its own JVM ({@code reader} fault): {@code files}. */
    public static final String READ_FILES = "read";
    /** The JVM began to shut down (SIGTERM or end of run). */
    public static final String TERM = "term";
    /** The worker's graceful shutdown finished. */
    public static final String STOPPED = "stopped";

    // nemesis events
    /** A worker process was started: {@code slot}, {@code pid}. */
    public static final String SPAWN = "spawn";
    /** A worker process ended: {@code slot}, {@code pid}, {@code code}, {@code expected}. */
    public static final String DIED = "died";
    /** A worker wrote nothing for {@code silentMs} while nothing was done to it: {@code slot}, {@code pid}. */
    public static final String HUNG = "hung";
    /** A fault began: {@code id}, {@code kind} (see {@link FaultKind}), {@code pid} (0: the database), {@code slot}. */
    public static final String FAULT = "fault";
    /** A fault ended (process resumed, link healed, database accepting connections): {@code id}. */
    public static final String HEAL = "heal";
    /** A phase of the run: {@code name} ({@code fairness} or {@code faults}), {@code edge} ({@code begin}/{@code end}). */
    public static final String PHASE = "phase";
    /**
     * Whether the workers run the shared mode (permits and read/write locks in the fault phase): {@code on}
     * ({@code true}/{@code false}) and, when off, {@code why}.
     */
    public static final String SHARED_MODE = "shared";

    // database journals (written by triggers, exported at the end; the "nano" is the journal row id)
    /** A token change of a lock row: {@code key}, {@code tok}, {@code owner}, {@code at}. */
    public static final String LOCK_ROW = "lockrow";
    /** An accepted fenced write: {@code key}, {@code old}, {@code new} (tokens), {@code pid}, {@code cur} (the lock row's token then), {@code live}. */
    public static final String FENCED_ROW = "fencedrow";
    /** A write of the unfenced counter: {@code key}, {@code old}, {@code new}, {@code pid}, {@code tok}. */
    public static final String COUNTER_ROW = "counterrow";

    /** The election every worker joins in leadership mode. */
    public static final String ELECTION = "faults";
    /** Its lock's key: the key of the leader's actions, in the histories and the application's tables. */
    public static final String LEADER_KEY = "leader:" + ELECTION;
    /** The thread that acts as leader. */
    public static final String LEADER_THREAD = "leader";

    /** Shared mode: the key held with {@value #PERMITS} permits (at most that many holders at once). */
    public static final String PERMIT_KEY = "permits";
    /** Shared mode: the permits of {@value #PERMIT_KEY}. */
    public static final int PERMITS = 3;
    /** Shared mode: the read/write key (readers share it, a writer has it alone). */
    public static final String RW_KEY = "rw";
    /** The {@code mode} of a section that holds one of the {@value #PERMITS} permits of {@value #PERMIT_KEY}. */
    public static final String PERMIT = "permit";
    /** The {@code mode} of a section that holds {@value #RW_KEY} for reading. */
    public static final String READ = "read";
    /** The {@code mode} of a section that holds {@value #RW_KEY} for writing, alone. */
    public static final String WRITE = "write";

    /** The key the fairness phase contends for. */
    public static final String FAIRNESS_KEY = "fair";

    private Vocabulary() {}
}
