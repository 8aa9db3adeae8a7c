package dev.baton.impl.logging;

import dev.baton.spi.KeyFormat;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Logs Baton's runtime messages, each with a stable id ({@code BATON-nnn}) that operators can search for; the
 * ids, levels and texts are {@link BatonMessage}'s. Goes through {@link System.Logger}, which servers route to
 * their own logging.
 *
 * <p>Every method that names a lock key (or an election, whose name is its lock's key) takes the {@link KeyFormat}
 * of {@code baton.log.keys} with it, so that no line can name a key unformatted: the key is written in that form,
 * and so is every occurrence of it in the other arguments and in the attached cause's messages
 * ({@link RedactedCause}).
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
        BatonMessage.MANAGER_STARTED.logWithParameters(LOG, capitalized(manager(manager)), store, executor);
    }

    /**
     * @param keys how keys are written
     * @param key the key
     * @param token the token
     * @param reason why
     */
    public static void lockLost(KeyFormat keys, String key, long token, String reason) {
        BatonMessage.LOCK_LOST.logWithParameters(LOG, keys.format(key), Long.toString(token), keys.redact(reason, key));
    }

    /**
     * @param keys how keys are written
     * @param key the key
     * @param failure what failed
     */
    public static void renewalFailed(KeyFormat keys, String key, Throwable failure) {
        BatonMessage.RENEWAL_FAILED.logWithCause(LOG, RedactedCause.of(keys, key, failure), keys.format(key));
    }

    /**
     * @param keys how keys are written
     * @param key the key
     * @param failure what failed
     */
    public static void releaseFailed(KeyFormat keys, String key, Throwable failure) {
        BatonMessage.RELEASE_FAILED.logWithCause(LOG, RedactedCause.of(keys, key, failure), keys.format(key));
    }

    /**
     * A waiter that stopped waiting could not give up its turn: harmless, the turn expires by itself.
     *
     * @param keys how keys are written
     * @param key the key
     * @param failure the failure
     */
    public static void leaveTurnFailed(KeyFormat keys, String key, Throwable failure) {
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(
                    Level.DEBUG,
                    "Giving up the turn on lock '" + keys.format(key) + "' failed; it expires by itself",
                    RedactedCause.of(keys, key, failure));
        }
    }

    /**
     * A listener of a lock's event (an observer of the application) threw.
     *
     * @param event what it was told, e.g. {@code acquired}
     * @param keys how keys are written
     * @param key the lock's key, or the election's name
     * @param failure the failure
     */
    public static void listenerFailed(String event, KeyFormat keys, String key, Throwable failure) {
        BatonMessage.LISTENER_FAILED.logWithCause(
                LOG, RedactedCause.of(keys, key, failure), event + " '" + keys.format(key) + "'");
    }

    /**
     * @param manager the manager
     * @param failure why the release notification could not be set up
     */
    public static void notificationUnavailable(String manager, Throwable failure) {
        BatonMessage.NOTIFICATION_UNAVAILABLE.logWithCause(LOG, failure, manager(manager));
    }

    /**
     * @param manager the manager shutting down
     * @param count how many locks were still held
     * @param graceMillis how long the shutdown waits for their work to end
     */
    public static void stoppingWithLocks(String manager, int count, long graceMillis) {
        BatonMessage.STOPPING_WITH_LOCKS.logWithParameters(
                LOG, manager(manager), Integer.toString(count), Long.toString(graceMillis));
    }

    /**
     * @param keys how keys are written
     * @param key the key
     * @param token the fencing token
     * @param graceMillis the grace period that ran out
     */
    public static void leftToExpire(KeyFormat keys, String key, long token, long graceMillis) {
        BatonMessage.LEFT_TO_EXPIRE.logWithParameters(
                LOG, keys.format(key), Long.toString(token), Long.toString(graceMillis));
    }

    /**
     * @param keys how keys are written
     * @param key the key
     * @param tookMillis how long the store took to answer
     * @param ttlMillis the lease asked for
     */
    public static void acquiredTooLate(KeyFormat keys, String key, long tookMillis, long ttlMillis) {
        BatonMessage.ACQUIRED_TOO_LATE.logWithParameters(
                LOG, keys.format(key), Long.toString(tookMillis), Long.toString(ttlMillis));
    }

    /**
     * @param what what failed at shutdown
     * @param failure the failure
     */
    public static void shutdownFailed(String what, Throwable failure) {
        BatonMessage.SHUTDOWN_FAILED.logWithCause(LOG, failure, what);
    }

    /**
     * Nothing configured a store and the application has no {@code LockStore} bean: the memory store is
     * used, which excludes nothing across instances. Logged once, at start.
     */
    public static void memoryStoreByDefault() {
        BatonMessage.MEMORY_STORE_BY_DEFAULT.log(LOG);
    }

    /**
     * @param keys how keys are written
     * @param key the key
     * @param holdMillis the hold that could not be set
     * @param failure what failed
     */
    public static void keepFailed(KeyFormat keys, String key, long holdMillis, Throwable failure) {
        BatonMessage.KEEP_FAILED.logWithCause(LOG, RedactedCause.of(keys, key, failure), keys.format(key), holdMillis);
    }

    /**
     * A firing of an exclusive schedule that another holder has: the expected case.
     *
     * @param method the method
     * @param keys how keys are written
     * @param key the key
     * @param remaining the holder's remaining lease, or empty when unknown
     */
    public static void scheduleHeldElsewhere(
            String method, KeyFormat keys, String key, java.util.OptionalLong remaining) {
        if (LOG.isLoggable(BatonMessage.SCHEDULE_HELD_ELSEWHERE.level())) { // the expected case: build nothing
            BatonMessage.SCHEDULE_HELD_ELSEWHERE.log(
                    LOG,
                    method,
                    keys.format(key),
                    remaining.isPresent() ? " for " + remaining.getAsLong() + " ms more" : "");
        }
    }

    /**
     * A firing of an exclusive schedule skipped because its planned time was claimed (run) already.
     *
     * @param method the method
     * @param keys how keys are written
     * @param claimKey the claim's key
     * @param remaining how long the claim is kept still, if known
     */
    public static void schedulePlannedTimeClaimed(
            String method, KeyFormat keys, String claimKey, java.util.OptionalLong remaining) {
        if (LOG.isLoggable(BatonMessage.SCHEDULE_PLANNED_TIME_CLAIMED.level())) { // the expected case
            BatonMessage.SCHEDULE_PLANNED_TIME_CLAIMED.log(
                    LOG,
                    method,
                    keys.format(claimKey),
                    remaining.isPresent() ? " for " + remaining.getAsLong() + " ms more" : "");
        }
    }

    /**
     * A firing of an exclusive schedule skipped because the lock could not be asked for.
     *
     * @param method the method
     * @param keys how keys are written
     * @param key the key
     * @param failure what failed
     */
    public static void scheduleUnguarded(String method, KeyFormat keys, String key, Throwable failure) {
        Throwable cause = RedactedCause.of(keys, key, failure);
        BatonMessage.SCHEDULE_UNGUARDED.logWithCause(LOG, cause, method, keys.format(key), cause);
    }

    /**
     * @param what a detail for debugging
     */
    public static void debug(String what) {
        LOG.log(Level.DEBUG, what);
    }

    /**
     * A detail for debugging that names a key.
     *
     * @param keys how keys are written
     * @param key the key {@code what} names
     * @param what the detail, the key as it is
     */
    public static void debug(KeyFormat keys, String key, String what) {
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(Level.DEBUG, keys.redact(what, key));
        }
    }

    /**
     * @param manager the manager
     * @param keys how keys are written
     * @param key the key
     * @param token the fencing token of the holder whose lock was freed
     * @param caller who asked: thread and principal
     */
    public static void forcedRelease(String manager, KeyFormat keys, String key, long token, String caller) {
        BatonMessage.FORCED_RELEASE.logWithParameters(
                LOG, keys.format(key), Long.toString(token), manager(manager), caller);
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
        BatonMessage.METRICS_UNAVAILABLE.logWithCause(LOG, failure, manager(manager), where, failure);
    }

    /**
     * A configured {@code baton.*} key that nothing of Baton reads: it has no effect.
     *
     * @param key the key
     * @param closest the known key it was probably meant to be, if one is close
     */
    public static void unknownKey(String key, java.util.Optional<String> closest) {
        BatonMessage.UNKNOWN_KEY.log(
                LOG, key, closest.map(k -> "did you mean " + k + "?").orElse("see the configuration reference"));
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
        BatonMessage.KEY_OF_NO_MANAGER.log(
                LOG,
                key,
                manager,
                listed.isEmpty() ? "lists none" : "is " + String.join(",", listed),
                closest.map(k -> "did you mean " + k + "?")
                        .orElse("add '" + manager + "' to baton.managers to declare it"));
    }

    /**
     * This instance was granted an election.
     *
     * @param keys how keys (and election names) are written
     * @param name the election
     * @param manager the manager
     * @param token the term's fencing token
     */
    public static void leadershipGranted(KeyFormat keys, String name, String manager, long token) {
        BatonMessage.LEADERSHIP_GRANTED.log(LOG, keys.format(name), manager(manager), token);
    }

    /**
     * A term of this instance ended.
     *
     * @param keys how keys (and election names) are written
     * @param name the election
     * @param manager the manager
     * @param token the term's fencing token
     * @param why why it ended; for a lost lock, the loss
     * @param lost whether the lock was lost (logged as a warning)
     */
    public static void leadershipRevoked(
            KeyFormat keys, String name, String manager, long token, String why, boolean lost) {
        (lost ? BatonMessage.LEADERSHIP_LOST : BatonMessage.LEADERSHIP_REVOKED)
                .log(LOG, keys.format(name), manager(manager), token, keys.redact(why, name));
    }

    /**
     * Standing by in an election failed (the store is down): tried again later.
     *
     * @param keys how keys (and election names) are written
     * @param name the election
     * @param manager the manager
     * @param failure what failed
     * @param retryMillis when it is tried again
     */
    public static void standbyFailed(KeyFormat keys, String name, String manager, Throwable failure, long retryMillis) {
        BatonMessage.STANDBY_FAILED.log(
                LOG, keys.format(name), manager(manager), keys.redact(String.valueOf(failure), name), retryMillis);
    }

    /**
     * A call of a {@code @Leader} method skipped in a follower.
     *
     * @param method the method
     * @param keys how keys (and election names) are written
     * @param name the election
     */
    public static void followerSkipped(String method, KeyFormat keys, String name) {
        if (LOG.isLoggable(BatonMessage.FOLLOWER_SKIPPED.level())) {
            BatonMessage.FOLLOWER_SKIPPED.log(LOG, method, keys.format(name));
        }
    }
}
