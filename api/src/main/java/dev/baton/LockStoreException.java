package dev.baton;

/** The lock store failed (unreachable, refused, broken); the cause says how. */
public class LockStoreException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what the store was doing
     * @param cause the store's failure
     */
    public LockStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param message what went wrong
     */
    public LockStoreException(String message) {
        super(message);
    }
}
