package dev.baton;

/**
 * Why a held lock was lost: its renewal failed until the lease was over, or the store reported
 * another owner. It is the value {@link Lock#whenLost()} completes with and what
 * {@link Lock#checkHeld()} throws; it is not thrown into the work by default.
 */
public class LockLostException extends LockException {

    private static final long serialVersionUID = 1L;

    /** The key of the lost lock. */
    private final String key;
    /** The fencing token of the lost acquisition. */
    private final long fencingToken;

    /**
     * @param key the key of the lost lock
     * @param fencingToken the token of the lost acquisition
     * @param reason why it was lost
     * @param cause the store failure behind it, or null
     */
    public LockLostException(String key, long fencingToken, String reason, Throwable cause) {
        super("Lock '" + key + "' (fencing token " + fencingToken + ") is no longer held: " + reason, cause);
        this.key = key;
        this.fencingToken = fencingToken;
    }

    /**
     * @return the key of the lost lock
     */
    public String getKey() {
        return key;
    }

    /**
     * @return the fencing token of the lost acquisition
     */
    public long getFencingToken() {
        return fencingToken;
    }
}
