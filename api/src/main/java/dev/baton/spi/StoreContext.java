package dev.baton.spi;

import java.lang.annotation.Annotation;
import java.util.Optional;

/** What a {@link LockStoreFactory} gets: the store's settings and, inside CDI, the application's beans. */
public interface StoreContext {

    /**
     * The lock manager the store is for: empty for the default one.
     *
     * @return the manager name
     */
    String managerName();

    /**
     * A setting of this store: for store {@code jpa} and setting {@code table}, the value of
     * {@code baton.<manager>.jpa.table}, else {@code baton.jpa.table}.
     *
     * @param name the setting's name below the store's prefix
     * @return the value, if configured
     */
    Optional<String> setting(String name);

    /**
     * The full configuration key a setting is read from, for error messages.
     *
     * @param name the setting's name below the store's prefix
     * @return e.g. {@code baton.jpa.table}
     */
    String settingKey(String name);

    /**
     * A bean of the application (a contextual reference), when running inside CDI.
     *
     * @param type the bean type
     * @param qualifiers its qualifiers
     * @param <T> the bean type
     * @return the bean, or empty outside CDI or when there is no such bean
     * @throws dev.baton.LockConfigurationException when several beans match (naming them)
     */
    <T> Optional<T> bean(Class<T> type, Annotation... qualifiers);

    /**
     * How the store writes a lock key in its log lines ({@code baton.log.keys}), and in any driver text it logs
     * that may hold one ({@link KeyFormat#redact}): the same form as the runtime's own lines.
     *
     * @return the form; {@link KeyFormat#PLAIN} unless the runtime says otherwise
     */
    default KeyFormat logKeys() {
        return KeyFormat.PLAIN;
    }
}
