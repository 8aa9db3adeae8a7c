package dev.baton.spi;

/**
 * Creates a {@link LockStore} from configuration: {@code baton.store=<name>} selects the factory of
 * that {@link #name()}. Factories are found with {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.baton.spi.LockStoreFactory}).
 *
 * <p>{@link #validate} runs when the application deploys, so a wrong setting fails the deployment;
 * {@link #create} may run then too, so it must not connect: a store connects at its first operation.
 */
public interface LockStoreFactory {

    /**
     * The name {@code baton.store} selects, e.g. {@code memory}, {@code jpa}, {@code redis}.
     *
     * @return the store name
     */
    String name();

    /**
     * Checks the store's settings without connecting.
     *
     * @param context the settings and beans
     * @throws dev.baton.LockConfigurationException naming the key and value that are wrong, or
     *     {@link dev.baton.LockStoreDriverNotFoundException} when a needed library is missing
     */
    default void validate(StoreContext context) {}

    /**
     * The bean types this factory asks {@link StoreContext#bean} for (a client, an {@code EntityManagerFactory}),
     * by binary name: names, so that listing them loads no class of a library that may be missing. Baton's CDI
     * extension remembers the application's beans of these types as the container deploys them, so it finds them
     * where the container would not let Baton's own archive resolve them (a library jar of a WAR on some
     * servers); it remembers no other bean of the application.
     *
     * @return the binary names of the bean types; none by default
     */
    default java.util.Set<String> beanTypes() {
        return java.util.Set.of();
    }

    /**
     * The settings this factory reads, by their names below the store's prefix: {@code table} for
     * {@code baton.jpa.table} and {@code baton.<manager>.jpa.table}. At deployment Baton warns about every key
     * under the prefix that is none of them (most often a misspelling), naming the closest one.
     *
     * @return the names of the settings, when the factory declares them; empty (the default) when it does not,
     *     and then Baton checks no key under its prefix
     */
    default java.util.Optional<java.util.Set<String>> settingNames() {
        return java.util.Optional.empty();
    }

    /**
     * Creates the store, without connecting.
     *
     * @param context the settings and beans
     * @return the store
     */
    LockStore create(StoreContext context);
}
