package dev.baton;

/**
 * The thread was interrupted while it waited for a lock. The thread's interrupt flag is set again
 * before this is thrown; no lock is held.
 */
public class LockInterruptedException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * @param key the key that was being waited for
     * @param cause the interruption
     */
    public LockInterruptedException(String key, InterruptedException cause) {
        super("Interrupted while waiting for lock '" + key + "'", cause);
    }
}
