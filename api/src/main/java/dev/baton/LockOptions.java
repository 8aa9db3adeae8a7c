package dev.baton;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * How to acquire one lock with {@link Locks}: the lease, the timeout, whether to wait at all, and how to
 * poll the store while waiting. Immutable; unset values take the lock manager's configured defaults.
 *
 * <pre>{@code
 * LockOptions.defaults().withTtl(Duration.ofMinutes(2)).withTimeout(Duration.ofSeconds(3))
 * LockOptions.defaults().withAwait(false)
 * LockOptions.defaults().withPollInterval(Duration.ofMillis(2), Duration.ofMillis(20)).withPollJitter(0.2)
 * }</pre>
 */
public final class LockOptions {

    private static final LockOptions DEFAULTS = new LockOptions(null, null, true, null, null, null, LockType.WRITE, 0);

    /** The most permits a key may have. */
    public static final int MAX_PERMITS = 1_000_000;

    private final Duration ttl;
    private final Duration timeout;
    private final boolean await;
    private final Duration pollMin;
    private final Duration pollMax;
    private final Double pollJitter;
    private final LockType type;
    /** 0: not set. */
    private final int permits;

    private LockOptions(
            Duration ttl,
            Duration timeout,
            boolean await,
            Duration pollMin,
            Duration pollMax,
            Double pollJitter,
            LockType type,
            int permits) {
        this.type = type;
        this.permits = permits;
        this.ttl = ttl;
        this.timeout = timeout;
        this.await = await;
        this.pollMin = pollMin;
        this.pollMax = pollMax;
        this.pollJitter = pollJitter;
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
        return new LockOptions(checkDuration("ttl", ttl), timeout, await, pollMin, pollMax, pollJitter, type, permits);
    }

    /**
     * Returns options with this timeout (and waiting).
     *
     * @param timeout at least 1 ms and at most 365 days
     * @return new options
     * @throws IllegalArgumentException if the timeout is out of range
     */
    public LockOptions withTimeout(Duration timeout) {
        return new LockOptions(
                ttl, checkDuration("timeout", timeout), true, pollMin, pollMax, pollJitter, type, permits);
    }

    /**
     * Returns options that wait for the lock (up to the timeout), or that try once and fail at once when another
     * holder has it: {@code withAwait(false)} is {@code @Synchronized(await = false)} and the configuration's
     * {@code Synchronized/await=false}.
     *
     * @param await false to try once
     * @return new options
     */
    public LockOptions withAwait(boolean await) {
        return new LockOptions(ttl, timeout, await, pollMin, pollMax, pollJitter, type, permits);
    }

    /**
     * Returns options that poll the store with these pauses while waiting for a lock another instance holds:
     * the first pause is {@code min}, each next one twice as long, up to {@code max}. A release in this JVM,
     * or one the store notifies, wakes the waiter at once; polling is the safety net.
     *
     * @param min the first pause: at least 1 ms and at most 365 days, whole milliseconds
     * @param max the longest pause: at least {@code min} and at most 365 days, whole milliseconds
     * @return new options
     * @throws IllegalArgumentException if a pause is out of range, or {@code max} is shorter than {@code min}
     */
    public LockOptions withPollInterval(Duration min, Duration max) {
        checkDuration("poll min interval", min);
        checkDuration("poll max interval", max);
        if (max.compareTo(min) < 0) {
            throw new IllegalArgumentException(
                    "poll max interval (" + max + ") must not be shorter than the poll min interval (" + min + ")");
        }
        return new LockOptions(ttl, timeout, await, min, max, pollJitter, type, permits);
    }

    /**
     * Returns options that take a random part of up to {@code jitter} off each pause between two polls, so
     * waiters do not poll in step.
     *
     * @param jitter from 0 (no randomness) to 1 (a pause anywhere from nothing to its full length)
     * @return new options
     * @throws IllegalArgumentException if the jitter is not from 0 to 1
     */
    public LockOptions withPollJitter(double jitter) {
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("poll jitter must be from 0 to 1, was " + jitter);
        }
        return new LockOptions(ttl, timeout, await, pollMin, pollMax, jitter, type, permits);
    }

    /**
     * Returns options that take the key for reading (shared with other readers) or for writing (alone, the default).
     * Read locks need a store that keeps shared leases (memory, JPA table mode, Redis); see {@link LockType}.
     *
     * @param type how to hold the key
     * @return new options
     */
    public LockOptions withType(LockType type) {
        return new LockOptions(
                ttl, timeout, await, pollMin, pollMax, pollJitter, Objects.requireNonNull(type, "type"), permits);
    }

    /**
     * Returns options that let up to {@code permits} holders have the key at once, across every instance: a
     * cluster-wide bulkhead. Each holder has a lease of its own (renewed while held, freed by its holder's crash
     * when its ttl runs out) and its own fencing token; a writer of the key waits for all of them. With
     * {@link LockType#READ}, it bounds the readers. {@code 1} is a plain lock. Every acquisition is judged by its
     * own number, so lowering it for a key in use lets the holders above the new number finish, and admits nobody
     * until fewer than that hold the key. Needs a store that keeps shared leases.
     *
     * @param permits from 1 to {@value #MAX_PERMITS}
     * @return new options
     * @throws IllegalArgumentException if {@code permits} is out of range
     */
    public LockOptions withPermits(int permits) {
        if (permits < 1 || permits > MAX_PERMITS) {
            throw new IllegalArgumentException("permits must be from 1 to " + MAX_PERMITS + ", was " + permits);
        }
        return new LockOptions(ttl, timeout, await, pollMin, pollMax, pollJitter, type, permits);
    }

    /**
     * How the key is held.
     *
     * @return {@link LockType#WRITE} unless set
     */
    public LockType type() {
        return type;
    }

    /**
     * How many holders may have the key at once, if set.
     *
     * @return the permits, or empty when not set (one writer; any number of readers)
     */
    public OptionalInt permits() {
        return permits == 0 ? OptionalInt.empty() : OptionalInt.of(permits);
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
     * Whether to wait for the lock, as {@link Synchronized#await()}.
     *
     * @return false when the acquisition tries once
     */
    public boolean await() {
        return await;
    }

    /**
     * The first pause between two polls, if set.
     *
     * @return the minimum poll interval, or empty for the manager's
     */
    public Optional<Duration> pollMinInterval() {
        return Optional.ofNullable(pollMin);
    }

    /**
     * The longest pause between two polls, if set.
     *
     * @return the maximum poll interval, or empty for the manager's
     */
    public Optional<Duration> pollMaxInterval() {
        return Optional.ofNullable(pollMax);
    }

    /**
     * The jitter of the pauses between two polls, if set.
     *
     * @return the jitter, or empty for the manager's
     */
    public OptionalDouble pollJitter() {
        return pollJitter == null ? OptionalDouble.empty() : OptionalDouble.of(pollJitter);
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
                && await == other.await
                && Objects.equals(pollMin, other.pollMin)
                && Objects.equals(pollMax, other.pollMax)
                && Objects.equals(pollJitter, other.pollJitter)
                && type == other.type
                && permits == other.permits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttl, timeout, await, pollMin, pollMax, pollJitter, type, permits);
    }

    @Override
    public String toString() {
        return "LockOptions[ttl=" + ttl + ", timeout=" + timeout + ", await=" + await + ", pollMin=" + pollMin
                + ", pollMax=" + pollMax + ", pollJitter=" + pollJitter + ", type=" + type + ", permits=" + permits
                + "]";
    }
}
