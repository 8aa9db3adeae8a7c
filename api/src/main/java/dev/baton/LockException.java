package dev.baton;

/** The base of every exception Baton throws. Unchecked. */
public class LockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong
     */
    public LockException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
