package dev.baton;

import jakarta.ejb.ApplicationException;
import java.time.Duration;
import java.util.Optional;

/**
 * The lock was not acquired in time: another holder kept it for the whole timeout, or, not waiting,
 * had it at the moment of the call. JAX-RS answers it with 409 Conflict, with a JSON body carrying
 * {@link #getTimeout()} as {@code timeoutMillis} and {@link #getWaited()} as {@code waitedMillis}, and a
 * {@code Retry-After} header from {@link #getRemainingLease()} when the store reported it.
 *
 * <p>To an EJB container it is an application exception that rolls back, it and its subclasses: thrown by a
 * {@code @Synchronized} method of an enterprise bean, it reaches the bean's caller as it is (not wrapped in an
 * {@code EJBException}, so a JAX-RS resource calling the bean answers 409 too), the bean instance is kept, and the
 * transaction the call ran in is marked for rollback. Without an EJB container the annotation is ignored.
 */
@ApplicationException(rollback = true, inherited = true)
public class LockTimeoutException extends LockException {

    private static final long serialVersionUID = 3L;

    /** The key that was not acquired. */
    private final String key;
    /** The timeout the caller had: how long it was willing to wait. */
    private final Duration timeout;
    /** How long the caller actually waited. */
    private final Duration waited;
    /** How long the holder's lease still ran when the caller gave up, if the store told it; null if not. */
    private final Duration remainingLease;

    /**
     * For a caller whose wait is not known: it is taken to be the timeout.
     *
     * @param key the key that was not acquired
     * @param timeout the caller's timeout ({@link Duration#ZERO} when it did not wait)
     */
    public LockTimeoutException(String key, Duration timeout) {
        this(key, timeout, timeout);
    }

    /**
     * @param key the key that was not acquired
     * @param timeout the caller's timeout ({@link Duration#ZERO} when it did not wait)
     * @param waited how long the caller actually waited: the time its attempt took, which may pass the
     *     timeout by the length of a store call that was already under way
     */
    public LockTimeoutException(String key, Duration timeout, Duration waited) {
        this(key, timeout, waited, null);
    }

    /**
     * @param key the key that was not acquired
     * @param timeout the caller's timeout ({@link Duration#ZERO} when it did not wait)
     * @param waited how long the caller actually waited
     * @param remainingLease how long the holder's lease still ran when the caller gave up, as the store
     *     last reported it (counted down since); null when unknown
     */
    public LockTimeoutException(String key, Duration timeout, Duration waited, Duration remainingLease) {
        super(
                timeout.isZero()
                        ? "Lock '" + key + "' is held by another owner (not waiting)"
                        : "Lock '" + key + "' was not acquired within " + timeout.toMillis() + " ms (waited "
                                + waited.toMillis() + " ms): another owner holds it");
        this.key = key;
        this.timeout = timeout;
        this.waited = waited;
        this.remainingLease = remainingLease;
    }

    /**
     * @return the key that was not acquired
     */
    public String getKey() {
        return key;
    }

    /**
     * @return the caller's timeout: how long it was willing to wait; zero when it did not wait
     *     ({@code tryAcquire}, {@code await = false})
     */
    public Duration getTimeout() {
        return timeout;
    }

    /**
     * @return how long the caller actually waited, from its call until it gave up
     */
    public Duration getWaited() {
        return waited;
    }

    /**
     * @return how long the holder's lease still ran when the caller gave up, where the store reports it
     *     (stores with the {@code REMAINING_LEASE} capability, or a holder in this application): when to try
     *     again at the earliest, unless the holder releases sooner
     */
    public Optional<Duration> getRemainingLease() {
        return Optional.ofNullable(remainingLease);
    }
}
