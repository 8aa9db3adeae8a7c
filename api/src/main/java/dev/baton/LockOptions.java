package dev.baton;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to acquire one lock with {@link Locks}: the lease, the timeout, and whether to wait at all.
 * Immutable; unset values take the lock manager's configured defaults.
 *
 * <pre>{@code
 * LockOptions.defaults().withTtl(Duration.ofMinutes(2)).withTimeout(Duration.ofSeconds(3))
 * LockOptions.defaults().withoutWaiting()
 * }</pre>
 */
public final class LockOptions {

    private static final LockOptions DEFAULTS = new LockOptions(null, null, true);

    private final Duration ttl;
    private final Duration timeout;
    private final boolean wait;

    private LockOptions(Duration ttl, Duration timeout, boolean wait) {
        this.ttl = ttl;
        this.timeout = timeout;
        this.wait = wait;
    }

    /**
     * The manager's defaults: its ttl and timeout, waiting.
     *
     * @return the default options
     */
    public static LockOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Returns options with this lease.
     *
     * @param ttl at least 1 ms and at most 365 days, whole milliseconds
     * @return new options
     * @throws IllegalArgumentException if the ttl is out of range
     */
    public LockOptions withTtl(Duration ttl) {
        return new LockOptions(checkDuration("ttl", ttl), timeout, wait);
    }

    /**
     * Returns options with this timeout (and waiting).
     *
     * @param timeout at least 1 ms and at most 365 days
     * @return new options
     * @throws IllegalArgumentException if the timeout is out of range
     */
    public LockOptions withTimeout(Duration timeout) {
        return new LockOptions(ttl, checkDuration("timeout", timeout), true);
    }

    /**
     * Returns options that try once and fail at once when another holder has the lock.
     *
     * @return new options
     */
    public LockOptions withoutWaiting() {
        return new LockOptions(ttl, timeout, false);
    }

    /**
     * The lease, if set.
     *
     * @return the ttl, or empty for the manager's default
     */
    public Optional<Duration> ttl() {
        return Optional.ofNullable(ttl);
    }

    /**
     * The timeout, if set.
     *
     * @return the timeout, or empty for the manager's default
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /**
     * Whether to wait for the lock.
     *
     * @return false when the acquisition tries once
     */
    public boolean isWait() {
        return wait;
    }

    private static Duration checkDuration(String what, Duration value) {
        Objects.requireNonNull(value, what);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + value);
        }
        if (value.compareTo(Duration.ofDays(365)) > 0) {
            throw new IllegalArgumentException(what + " must be at most 365 days, was " + value);
        }
        if (value.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException(what + " must be whole milliseconds, was " + value);
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockOptions other
                && Objects.equals(ttl, other.ttl)
                && Objects.equals(timeout, other.timeout)
                && wait == other.wait;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttl, timeout, wait);
    }

    @Override
    public String toString() {
        return "LockOptions[ttl=" + ttl + ", timeout=" + timeout + ", wait=" + wait + "]";
    }
}
