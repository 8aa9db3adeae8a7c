package dev.baton.spi;

import java.util.OptionalLong;

/**
 * What {@link LockStore#acquire} returns: acquired with a fencing token, or not acquired, optionally
 * with how long the current holder's lease still runs (so a waiter can sleep exactly that long).
 */
public final class AcquireResult {

    private static final AcquireResult NOT_ACQUIRED = new AcquireResult(false, 0, -1, false);
    private static final AcquireResult NEXT_IN_TURN = new AcquireResult(false, 0, -1, true);

    private final boolean acquired;
    private final long fencingToken;
    private final long remainingLeaseMillis;
    private final boolean nextInTurn;

    private AcquireResult(boolean acquired, long fencingToken, long remainingLeaseMillis, boolean nextInTurn) {
        this.acquired = acquired;
        this.fencingToken = fencingToken;
        this.remainingLeaseMillis = remainingLeaseMillis;
        this.nextInTurn = nextInTurn;
    }

    /**
     * The key was taken.
     *
     * @param fencingToken the token drawn for this acquisition: positive
     * @return the result
     * @throws IllegalArgumentException if the token is not positive
     */
    public static AcquireResult acquired(long fencingToken) {
        if (fencingToken <= 0) {
            throw new IllegalArgumentException("fencing token must be positive, was " + fencingToken);
        }
        return new AcquireResult(true, fencingToken, -1, false);
    }

    /**
     * The key is held by another live lock; its remaining lease is unknown.
     *
     * @return the result
     */
    public static AcquireResult notAcquired() {
        return NOT_ACQUIRED;
    }

    /**
     * The key is held by another live lock whose lease runs this much longer.
     *
     * @param remainingLeaseMillis the holder's remaining lease, at least 0
     * @return the result
     */
    public static AcquireResult notAcquired(long remainingLeaseMillis) {
        return new AcquireResult(false, 0, Math.max(0, remainingLeaseMillis), false);
    }

    /**
     * Not acquired, and the caller now holds the key's next turn ({@link LockStore#acquire(Acquisition)}): it should ask again soon after the key is released.
     *
     * @return the result
     */
    public static AcquireResult nextInTurn() {
        return NEXT_IN_TURN;
    }

    /**
     * Not acquired, the caller holds the key's next turn, and the holder's lease runs this much longer.
     *
     * @param remainingLeaseMillis the holder's remaining lease, at least 0
     * @return the result
     */
    public static AcquireResult nextInTurn(long remainingLeaseMillis) {
        return new AcquireResult(false, 0, Math.max(0, remainingLeaseMillis), true);
    }

    /**
     * @return whether the key was taken
     */
    public boolean isAcquired() {
        return acquired;
    }

    /**
     * @return the fencing token of the acquisition
     * @throws IllegalStateException if the key was not acquired
     */
    public long fencingToken() {
        if (!acquired) {
            throw new IllegalStateException("not acquired: no fencing token");
        }
        return fencingToken;
    }

    /**
     * @return whether the caller, not having acquired the key, holds its next turn
     */
    public boolean isNextInTurn() {
        return nextInTurn;
    }

    /**
     * @return how long the holder's lease still runs, when not acquired and the store reports it
     */
    public OptionalLong remainingLeaseMillis() {
        return remainingLeaseMillis < 0 ? OptionalLong.empty() : OptionalLong.of(remainingLeaseMillis);
    }

    @Override
    public String toString() {
        if (acquired) {
            return "acquired(token=" + fencingToken + ")";
        }
        String name = nextInTurn ? "nextInTurn" : "notAcquired";
        return remainingLeaseMillis < 0 ? name : name + "(remaining=" + remainingLeaseMillis + "ms)";
    }
}
