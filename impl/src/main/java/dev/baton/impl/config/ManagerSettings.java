package dev.baton.impl.config;

import java.util.Optional;

/**
 * The settings of one lock manager, validated.
 *
 * @param name the manager's name, empty for the default one
 * @param store the configured store name, the manager's own or inherited from the default manager, or
 *     empty when none is configured (see {@code dev.baton.impl.cdi.StorePlan} for how a store is found)
 * @param ttlMillis the default lease
 * @param timeoutMillis the default wait
 * @param prefix prepended to every key
 * @param renewIntervalMillis how often a held lock is renewed
 * @param interruptOnLoss whether the holder's thread is interrupted when its lock is lost
 * @param poll how waiters poll the store, unless a method or the caller sets its own
 * @param renewThreads the most renewal calls of this manager in flight at once, each on a thread of its
 *     own; further renewals wait their turn
 */
public record ManagerSettings(
        String name,
        Optional<String> store,
        long ttlMillis,
        long timeoutMillis,
        String prefix,
        long renewIntervalMillis,
        boolean interruptOnLoss,
        PollPolicy poll,
        int renewThreads) {

    /** The default lease: 30 s. */
    public static final long DEFAULT_TTL_MILLIS = 30_000;

    /** The default wait: 10 s. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 10_000;

    /** The default of {@code baton.renew-threads}: 4. */
    public static final int DEFAULT_RENEW_THREADS = 4;

    /** The most {@code baton.renew-threads} may be. */
    public static final int MAX_RENEW_THREADS = 64;

    /** Validates the settings that are not validated where they are read. */
    public ManagerSettings {
        if (renewThreads < 1 || renewThreads > MAX_RENEW_THREADS) {
            throw new IllegalArgumentException(
                    "renewThreads must be 1 to " + MAX_RENEW_THREADS + ", not " + renewThreads);
        }
    }

    /**
     * Settings with the default number of renewal threads.
     *
     * @param name the manager's name, empty for the default one
     * @param store the configured store name, if any
     * @param ttlMillis the default lease
     * @param timeoutMillis the default wait
     * @param prefix prepended to every key
     * @param renewIntervalMillis how often a held lock is renewed, 0 for a third of its lease
     * @param interruptOnLoss whether the holder's thread is interrupted when its lock is lost
     * @param poll how waiters poll the store
     */
    public ManagerSettings(
            String name,
            Optional<String> store,
            long ttlMillis,
            long timeoutMillis,
            String prefix,
            long renewIntervalMillis,
            boolean interruptOnLoss,
            PollPolicy poll) {
        this(
                name,
                store,
                ttlMillis,
                timeoutMillis,
                prefix,
                renewIntervalMillis,
                interruptOnLoss,
                poll,
                DEFAULT_RENEW_THREADS);
    }

    /**
     * Settings with the default {@link PollPolicy}.
     *
     * @param name the manager's name, empty for the default one
     * @param store the configured store name, if any
     * @param ttlMillis the default lease
     * @param timeoutMillis the default wait
     * @param prefix prepended to every key
     * @param renewIntervalMillis how often a held lock is renewed, 0 for a third of its lease
     * @param interruptOnLoss whether the holder's thread is interrupted when its lock is lost
     */
    public ManagerSettings(
            String name,
            Optional<String> store,
            long ttlMillis,
            long timeoutMillis,
            String prefix,
            long renewIntervalMillis,
            boolean interruptOnLoss) {
        this(name, store, ttlMillis, timeoutMillis, prefix, renewIntervalMillis, interruptOnLoss, PollPolicy.DEFAULT);
    }

    /**
     * The renewal interval for a lease: a third of it, at least 1 ms.
     *
     * @param ttlMillis the lease
     * @return the interval
     */
    private static long renewIntervalFor(long ttlMillis) {
        return Math.max(1, ttlMillis / 3);
    }

    /**
     * The renewal interval for a given lease: the configured one when it is shorter than the lease,
     * else a third of the lease.
     *
     * @param leaseMillis the lease of one lock
     * @return the interval for that lock
     */
    public long renewIntervalMillis(long leaseMillis) {
        return renewIntervalMillis > 0 && renewIntervalMillis < leaseMillis
                ? renewIntervalMillis
                : renewIntervalFor(leaseMillis);
    }
}
