package dev.baton.impl.logging;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Baton's log messages, each with a stable id ({@code BATON-nnn}) that operators can search for. Goes
 * through {@link System.Logger}, which servers route to their own logging.
 */
public final class BatonLog {

    private static final Logger LOG = System.getLogger("dev.baton");

    private BatonLog() {
    }

    /**
     * @param manager the manager
     * @param store the store description
     * @param executor where renewals run
     */
    public static void managerStarted(String manager, String store, String executor) {
        LOG.log(Level.INFO, "BATON-001 Lock manager ''{0}'' uses the {1} store; renewals run on {2}",
                manager.isEmpty() ? "default" : manager, store, executor);
    }

    /**
     * @param key the key
     * @param token the token
     * @param reason why
     */
    public static void lockLost(String key, long token, String reason) {
        LOG.log(Level.WARNING, "BATON-002 Lock ''{0}'' (fencing token {1}) was lost: {2}", key, token, reason);
    }

    /**
     * @param key the key
     * @param failure what failed
     */
    public static void renewalFailed(String key, Throwable failure) {
        LOG.log(Level.WARNING, "BATON-003 Renewing lock '" + key + "' failed; retrying until its lease is over", failure);
    }

    /**
     * @param key the key
     * @param failure what failed
     */
    public static void releaseFailed(String key, Throwable failure) {
        LOG.log(Level.WARNING, "BATON-004 Releasing lock '" + key + "' failed; it expires by itself at the end of its lease",
                failure);
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
        LOG.log(Level.INFO, "BATON-006 Release notifications of manager '" + manager + "' are unavailable; waiters poll",
                failure);
    }

    /**
     * @param count how many locks were still held
     */
    public static void releasingAtShutdown(int count) {
        LOG.log(Level.INFO, "BATON-007 Releasing {0} lock(s) still held at shutdown", count);
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
        LOG.log(Level.WARNING, "BATON-020 No lock store is configured (baton.store) and the application has no LockStore "
                + "bean: locks use the in-memory store and are local to this JVM, so they do not exclude other instances "
                + "of the application. Configure a shared store, or set baton.store=memory to confirm that one JVM is "
                + "meant.");
    }

    /**
     * @param what a detail for debugging
     */
    public static void debug(String what) {
        LOG.log(Level.DEBUG, what);
    }
}
