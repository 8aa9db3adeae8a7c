package dev.baton.jpa.internal;

import dev.baton.jpa.LockMode;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How a {@link dev.baton.jpa.JpaLockStore} holds its locks, one implementation per {@link LockMode}: rows of the
 * lock table ({@link TableLocks}) or database session locks ({@link dev.baton.jpa.internal.advisory.AdvisoryMode}).
 * The store chooses one when it is built; each method is one operation of {@link dev.baton.spi.LockStore}, with
 * arguments the runtime checked and the call's bound resolved (the statement timeout for a request without one).
 */
public interface LockOperations extends AutoCloseable {

    /** @return the mode this implements */
    LockMode mode();

    /**
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the ttl
     * @param maxWaitMillis the call's bound
     * @param turn the waiter's turn, or null
     * @return the result
     */
    AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn);

    /**
     * Only where {@link #capabilities} holds {@link StoreCapability#SHARED_LOCKS}; the default refuses.
     *
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the ttl
     * @param maxWaitMillis the call's bound
     * @param turn the waiter's turn, or null
     * @param sharedLimit the request's limit of shared leases, 1 to {@link Integer#MAX_VALUE}
     * @return the result
     * @throws UnsupportedOperationException if this mode holds no shared leases
     */
    default AcquireResult acquireShared(
            String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn, int sharedLimit) {
        throw new UnsupportedOperationException("The JPA lock store in "
                + mode().name().toLowerCase(Locale.ROOT)
                + " mode holds no shared leases: it"
                + " does not declare " + StoreCapability.SHARED_LOCKS + " (use table mode for permits and read locks)");
    }

    /**
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the ttl
     * @param maxWaitMillis the call's bound
     * @return whether the owner still held the key and holds it on
     */
    boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis);

    /**
     * @param leases at least one lease
     * @param ttlMillis the ttl
     * @param maxWaitMillis the call's bound
     * @return the leases renewed
     */
    Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis);

    /**
     * @param key the key
     * @param owner the owner
     * @return whether the owner held the key
     */
    boolean release(String key, String owner);

    /**
     * Only where {@link #capabilities} holds {@link StoreCapability#HAND_OVER}; the default refuses.
     *
     * @param owner the owner releasing the key
     * @param next the exclusive acquisition, without a turn, the key goes to
     * @return what was released and what {@code next} got
     * @throws UnsupportedOperationException if this mode does not hand keys over
     */
    default HandOverResult handOver(String owner, Acquisition next) {
        throw new UnsupportedOperationException("The JPA lock store in "
                + mode().name().toLowerCase(Locale.ROOT)
                + " mode does not hand keys over: it does not declare " + StoreCapability.HAND_OVER);
    }

    /**
     * @param key the key
     * @param waiter the waiter
     * @return whether the waiter had the key's turn
     */
    boolean leaveTurn(String key, String waiter);

    /**
     * Only where {@link #capabilities} holds {@link StoreCapability#INSPECT}.
     *
     * @param key the key
     * @return its holder, if any
     */
    Optional<Holder> inspect(String key);

    /** @return what the store offers in this mode; cheap, never connects */
    Set<StoreCapability> capabilities();

    /**
     * Only where {@link #capabilities} holds {@link StoreCapability#RELEASE_NOTIFICATION}.
     *
     * @param listener told the key of each release
     * @return ends the registration
     */
    AutoCloseable onRelease(Consumer<String> listener);

    /**
     * Fails unless fenced writes can check this mode's locks.
     *
     * @throws IllegalStateException if they cannot
     */
    void requireFencedWrites();

    /** Ends what the mode holds open (connections, threads); the store closes its factory after. */
    @Override
    void close();
}
