package dev.baton;

/**
 * The calling thread asked for a lock it already holds. Baton locks are not reentrant, so waiting
 * would wait for itself forever; the call fails at once instead.
 */
public class LockAlreadyHeldException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * @param key the key the thread already holds
     */
    public LockAlreadyHeldException(String key) {
        super("Lock '" + key + "' is already held by this thread; Baton locks are not reentrant "
                + "(release it first, or use a different key for the nested call)");
    }

    /**
     * @param key the key the thread already holds
     * @param how how the thread holds it and why that refuses the request, completing "Lock 'key' "
     */
    public LockAlreadyHeldException(String key, String how) {
        super("Lock '" + key + "' " + how);
    }
}
