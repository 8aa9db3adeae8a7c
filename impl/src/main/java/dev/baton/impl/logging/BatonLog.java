package dev.baton.impl.logging;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Baton's log messages, each with a stable id ({@code BATON-nnn}) that operators can search for. Goes
 * through {@link System.Logger}, which servers route to their own logging.
 */
public final class BatonLog {

    private static final Logger LOG = System.getLogger("dev.baton");

    private BatonLog() {}

    /**
     * How messages name a lock manager: {@code the default lock manager} (its name is empty) or
     * {@code lock manager 'reports'}.
     *
     * @param manager the manager's name, empty for the default
     * @return its name in a message
     */
    public static String manager(String manager) {
        return manager.isEmpty() ? "the default lock manager" : "lock manager '" + manager + "'";
    }

    /**
     * @param text a sentence fragment
     * @return it with its first letter in upper case
     */
    public static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /**
     * @param manager the manager
     * @param store the store description
     * @param executor where renewals run
     */
    public static void managerStarted(String manager, String store, String executor) {
        LOG.log(
                Level.INFO,
                "BATON-001 {0} uses the {1} store; renewals run on {2}",
                capitalized(manager(manager)),
                store,
                executor);
    }

    /**
     * @param key the key
     * @param token the token
     * @param reason why
     */
    public static void lockLost(String key, long token, String reason) {
        LOG.log(
                Level.WARNING,
                "BATON-002 Lock ''{0}'' (fencing token {1}) was lost: {2}",
                key,
                Long.toString(token),
                reason);
    }

    /**
     * @param key the key
     * @param failure what failed
     */
    public static void renewalFailed(String key, Throwable failure) {
        LOG.log(
                Level.WARNING,
                "BATON-003 Renewing lock '" + key + "' failed; retrying until its lease is over",
                failure);
    }

    /**
     * @param key the key
     * @param failure what failed
     */
    public static void releaseFailed(String key, Throwable failure) {
        LOG.log(
                Level.WARNING,
                "BATON-004 Releasing lock '" + key + "' failed; it expires by itself at the end of its lease",
                failure);
    }

    /**
     * A waiter that stopped waiting could not give up its turn: harmless, the turn expires by itself.
     *
     * @param key the key
     * @param failure the failure
     */
    public static void leaveTurnFailed(String key, Throwable failure) {
        LOG.log(Level.DEBUG, "Giving up the turn on lock '" + key + "' failed; it expires by itself", failure);
    }

    /**
     * @param what what failed
     * @param failure the failure
     */
    public static void listenerFailed(String what, Throwable failure) {
        LOG.log(Level.WARNING, "BATON-005 A lock listener failed on " + what, failure);
    }

    /**
     * @param manager the manager
     * @param failure why the release notification could not be set up
     */
    public static void notificationUnavailable(String manager, Throwable failure) {
        LOG.log(
                Level.INFO,
                "BATON-006 Release notifications of " + manager(manager) + " are unavailable; waiters poll",
                failure);
    }

    /**
     * @param manager the manager shutting down
     * @param count how many locks were still held
     * @param graceMillis how long the shutdown waits for their work to end
     */
    public static void stoppingWithLocks(String manager, int count, long graceMillis) {
        LOG.log(
                Level.INFO,
                "BATON-007 Shutting down {0} with {1} lock(s) still held: their holders are told the locks"
                        + " are lost, and each is released when its work ends (waiting at most {2} ms)",
                manager(manager),
                Integer.toString(count),
                Long.toString(graceMillis));
    }

    /**
     * @param key the key
     * @param token the fencing token
     * @param graceMillis the grace period that ran out
     */
    public static void leftToExpire(String key, long token, long graceMillis) {
        LOG.log(
                Level.WARNING,
                "BATON-009 Lock ''{0}'' (fencing token {1}) is left to expire by its lease: it was"
                        + " still open when the shutdown grace period of {2} ms ended, so its work may still run and it is not"
                        + " released (no other instance can take it before its lease ends)",
                key,
                Long.toString(token),
                Long.toString(graceMillis));
    }

    /**
     * @param key the key
     * @param tookMillis how long the store took to answer
     * @param ttlMillis the lease asked for
     */
    public static void acquiredTooLate(String key, long tookMillis, long ttlMillis) {
        LOG.log(
                Level.WARNING,
                "BATON-010 The store answered the acquisition of ''{0}'' after {1} ms, when its lease of"
                        + " {2} ms had already ended: not taken (given back to the store)",
                key,
                Long.toString(tookMillis),
                Long.toString(ttlMillis));
    }

    /**
     * @param what what failed at shutdown
     * @param failure the failure
     */
    public static void shutdownFailed(String what, Throwable failure) {
        LOG.log(Level.WARNING, "BATON-008 Closing " + what + " failed", failure);
    }

    /**
     * Nothing configured a store and the application has no {@code LockStore} bean: the memory store is
     * used, which excludes nothing across instances. Logged once, at start.
     */
    public static void memoryStoreByDefault() {
        LOG.log(
                Level.WARNING,
                "BATON-020 No lock store is configured (baton.store) and the application has no LockStore "
                        + "bean: locks use the in-memory store and are local to this JVM, so they do not exclude other instances "
                        + "of the application. Configure a shared store, or set baton.store=memory to confirm that one JVM is "
                        + "meant.");
    }

    /**
     * @param key the key
     * @param holdMillis the hold that could not be set
     * @param failure what failed
     */
    public static void keepFailed(String key, long holdMillis, Throwable failure) {
        LOG.log(
                Level.WARNING,
                "BATON-040 Setting the hold of lock '" + key + "' to " + holdMillis + " ms failed; it is"
                        + " not released and expires by itself at the end of its current lease",
                failure);
    }

    /**
     * A firing of an exclusive schedule that another holder has: the expected case.
     *
     * @param method the method
     * @param key the key
     * @param remaining the holder's remaining lease, or empty when unknown
     */
    public static void scheduleHeldElsewhere(String method, String key, java.util.OptionalLong remaining) {
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(
                    Level.DEBUG,
                    "BATON-041 Skipped this firing of " + method + ": its schedule lock '" + key + "' is held elsewhere"
                            + (remaining.isPresent() ? " for " + remaining.getAsLong() + " ms more" : ""));
        }
    }

    /**
     * A firing of an exclusive schedule skipped because the lock could not be asked for.
     *
     * @param method the method
     * @param key the key
     * @param failure what failed
     */
    public static void scheduleUnguarded(String method, String key, Throwable failure) {
        LOG.log(
                Level.ERROR,
                "BATON-042 Skipped this firing of " + method + ": its schedule lock '" + key + "' could not be taken ("
                        + failure + "), and the method is never run unguarded",
                failure);
    }

    /**
     * @param what a detail for debugging
     */
    public static void debug(String what) {
        LOG.log(Level.DEBUG, what);
    }

    /**
     * @param manager the manager
     * @param key the key
     * @param token the fencing token of the holder whose lock was freed
     * @param caller who asked: thread and principal
     */
    public static void forcedRelease(String manager, String key, long token, String caller) {
        LOG.log(
                Level.WARNING,
                "BATON-050 Lock ''{0}'' (fencing token {1}) of {2} was released by force, asked by {3};"
                        + " its holder learns at its next renewal that the lock is lost",
                key,
                Long.toString(token),
                manager(manager),
                caller);
    }

    /**
     * A manager's metrics could not be registered (another metric of the same name and another type or tags in
     * the registry): it runs without metrics rather than fail its locks.
     *
     * @param manager the manager
     * @param where what records the metrics
     * @param failure why
     */
    public static void metricsUnavailable(String manager, String where, Throwable failure) {
        LOG.log(
                Level.WARNING,
                "BATON-060 The metrics of " + manager(manager) + " cannot be registered in " + where + " (" + failure
                        + "); it takes its locks without metrics",
                failure);
    }

    /**
     * A configured {@code baton.*} key that nothing of Baton reads: it has no effect.
     *
     * @param key the key
     * @param closest the known key it was probably meant to be, if one is close
     */
    public static void unknownKey(String key, java.util.Optional<String> closest) {
        LOG.log(
                Level.WARNING,
                "BATON-080 The configuration key " + key + " is not one Baton reads (no manager, method or store has"
                        + " such a setting), so it has no effect; "
                        + closest.map(k -> "did you mean " + k + "?").orElse("see the configuration reference"));
    }

    /**
     * A configured key of a named manager that {@code baton.managers} does not list: it has no effect.
     *
     * @param key the key
     * @param manager the manager it names
     * @param listed the managers {@code baton.managers} lists
     * @param closest the known key it was probably meant to be, if one is close
     */
    public static void keyOfNoManager(
            String key, String manager, java.util.Collection<String> listed, java.util.Optional<String> closest) {
        LOG.log(
                Level.WARNING,
                "BATON-081 The configuration key " + key + " has no effect: there is no manager named '" + manager
                        + "' (baton.managers " + (listed.isEmpty() ? "lists none" : "is " + String.join(",", listed))
                        + "); "
                        + closest.map(k -> "did you mean " + k + "?")
                                .orElse("add '" + manager + "' to baton.managers to declare it"));
    }
}
