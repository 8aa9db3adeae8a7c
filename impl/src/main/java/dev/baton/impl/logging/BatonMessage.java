package dev.baton.impl.logging;

import dev.baton.spi.LogMessage;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The runtime's log messages: each one's id ({@code BATON-nnn}), level and text, in one place. Each store keeps its
 * own ({@code JpaMessage}, {@code RedisMessage}): all implement the API's {@link LogMessage}, and the {@code docs}
 * module checks that the ids of all of them are unique and match the reference.
 *
 * <p>Patterns, arguments and how they are logged: {@link LogMessage}.
 */
public enum BatonMessage implements LogMessage {
    MANAGER_STARTED("BATON-001", Level.INFO, "{0} uses the {1} store; renewals run on {2}"),
    LOCK_LOST("BATON-002", Level.WARNING, "Lock ''{0}'' (fencing token {1}) was lost: {2}"),
    RENEWAL_FAILED("BATON-003", Level.WARNING, "Renewing lock ''{0}'' failed; retrying until its lease is over"),
    RELEASE_FAILED(
            "BATON-004", Level.WARNING, "Releasing lock ''{0}'' failed; it expires by itself at the end of its lease"),
    LISTENER_FAILED("BATON-005", Level.WARNING, "A lock listener failed on {0}"),
    NOTIFICATION_UNAVAILABLE("BATON-006", Level.INFO, "Release notifications of {0} are unavailable; waiters poll"),
    STOPPING_WITH_LOCKS(
            "BATON-007",
            Level.INFO,
            "Shutting down {0} with {1} lock(s) still held: their holders are told the locks"
                    + " are lost, and each is released when its work ends (waiting at most {2} ms)"),
    SHUTDOWN_FAILED("BATON-008", Level.WARNING, "Closing {0} failed"),
    LEFT_TO_EXPIRE(
            "BATON-009",
            Level.WARNING,
            "Lock ''{0}'' (fencing token {1}) is left to expire by its lease: it was"
                    + " still open when the shutdown grace period of {2} ms ended, so its work may still run and it is not"
                    + " released (no other instance can take it before its lease ends)"),
    ACQUIRED_TOO_LATE(
            "BATON-010",
            Level.WARNING,
            "The store answered the acquisition of ''{0}'' after {1} ms, when its lease of"
                    + " {2} ms had already ended: not taken (given back to the store)"),
    MEMORY_STORE_BY_DEFAULT(
            "BATON-020",
            Level.WARNING,
            "No lock store is configured (baton.store) and the application has no LockStore "
                    + "bean: locks use the in-memory store and are local to this JVM, so they do not exclude other instances "
                    + "of the application. Configure a shared store, or set baton.store=memory to confirm that one JVM is "
                    + "meant."),
    KEEP_FAILED(
            "BATON-040",
            Level.WARNING,
            "Setting the hold of lock ''{0}'' to {1} ms failed; it is"
                    + " not released and expires by itself at the end of its current lease"),
    SCHEDULE_HELD_ELSEWHERE(
            "BATON-041",
            Level.DEBUG,
            "Skipped this firing of {0}: its run lock ''{1}'' is held elsewhere (a run in progress, or its hold){2}"),
    SCHEDULE_UNGUARDED(
            "BATON-042",
            Level.ERROR,
            "Skipped this firing of {0}: its schedule lock ''{1}'' could not be taken ({2}), and the method is"
                    + " never run unguarded"),
    SCHEDULE_PLANNED_TIME_CLAIMED(
            "BATON-043",
            Level.DEBUG,
            "Skipped this firing of {0}: its planned time was claimed already (''{1}'', kept{2})"),
    LEADERSHIP_GRANTED("BATON-070", Level.INFO, "This instance leads ''{0}'' of {1} (fencing token {2})"),
    LEADERSHIP_REVOKED(
            "BATON-071", Level.INFO, "This instance no longer leads ''{0}'' of {1} (fencing token {2}): {3}"),
    LEADERSHIP_LOST(
            "BATON-072",
            Level.WARNING,
            "This instance no longer leads ''{0}'' of {1} (fencing token {2}): its lock was lost ({3})"),
    STANDBY_FAILED("BATON-073", Level.WARNING, "Standing by for ''{0}'' of {1} failed ({2}); trying again in {3} ms"),
    FOLLOWER_SKIPPED("BATON-074", Level.DEBUG, "Skipped a call of {0}: this instance does not lead ''{1}''"),
    FORCED_RELEASE(
            "BATON-050",
            Level.WARNING,
            "Lock ''{0}'' (fencing token {1}) of {2} was released by force, asked by {3};"
                    + " its holder learns at its next renewal that the lock is lost"),
    METRICS_UNAVAILABLE(
            "BATON-060",
            Level.WARNING,
            "The metrics of {0} cannot be registered in {1} ({2}); it takes its locks without metrics"),
    UNKNOWN_KEY(
            "BATON-080",
            Level.WARNING,
            "The configuration key {0} is not one Baton reads (no manager, method or store has"
                    + " such a setting), so it has no effect; {1}"),
    KEY_OF_NO_MANAGER(
            "BATON-081",
            Level.WARNING,
            "The configuration key {0} has no effect: there is no manager named ''{1}'' (baton.managers {2}); {3}");

    private final String id;
    private final Level level;
    private final String pattern;

    BatonMessage(String id, Level level, String pattern) {
        this.id = id;
        this.level = level;
        this.pattern = pattern;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Level level() {
        return level;
    }

    @Override
    public String pattern() {
        return pattern;
    }

    /**
     * Logs the pattern and its arguments apart, for the logging backend to format (and to keep apart where it
     * records parameters).
     *
     * @param logger where
     * @param arguments the pattern's arguments, already written as text
     */
    public void logWithParameters(Logger logger, String... arguments) {
        logger.log(level, text(), (Object[]) arguments);
    }
}
