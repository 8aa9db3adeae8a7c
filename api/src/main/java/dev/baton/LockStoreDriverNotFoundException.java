package dev.baton;

/**
 * The configured store needs a library that is not on the classpath (a JDBC driver, a JPA provider,
 * a Redis client). The message names the store and the missing artifact.
 */
public class LockStoreDriverNotFoundException extends LockConfigurationException {

    private static final long serialVersionUID = 1L;

    /**
     * @param store the store name, e.g. {@code redis}
     * @param missing what is missing, e.g. the Maven coordinates of the client
     * @param cause the class-loading failure
     */
    public LockStoreDriverNotFoundException(String store, String missing, Throwable cause) {
        super("The lock store '" + store + "' needs " + missing + " on the classpath", cause);
    }
}
