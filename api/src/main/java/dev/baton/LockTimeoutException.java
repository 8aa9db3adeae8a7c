package dev.baton;

import java.time.Duration;

/**
 * The lock was not acquired in time: another holder kept it for the whole timeout, or, not waiting,
 * had it at the moment of the call. JAX-RS answers it with 409 Conflict.
 */
public class LockTimeoutException extends LockException {

    private static final long serialVersionUID = 1L;

    /** The key that was not acquired. */
    private final String key;
    /** How long the caller waited. */
    private final Duration timeout;

    /**
     * @param key the key that was not acquired
     * @param timeout how long the caller waited ({@link Duration#ZERO} when it did not wait)
     */
    public LockTimeoutException(String key, Duration timeout) {
        super(timeout.isZero()
                ? "Lock '" + key + "' is held by another owner (not waiting)"
                : "Lock '" + key + "' was not acquired within " + timeout.toMillis() + " ms: another owner holds it");
        this.key = key;
        this.timeout = timeout;
    }

    /**
     * @return the key that was not acquired
     */
    public String getKey() {
        return key;
    }

    /**
     * @return how long the caller waited; zero when it did not wait
     */
    public Duration getTimeout() {
        return timeout;
    }
}
