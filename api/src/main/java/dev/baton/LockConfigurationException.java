package dev.baton;

/**
 * A configuration value or annotation is invalid. Reported when the application deploys, with a
 * message that names the key (or class and method) and the value.
 */
public class LockConfigurationException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the key and the value
     */
    public LockConfigurationException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong
     * @param cause the underlying failure
     */
    public LockConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
