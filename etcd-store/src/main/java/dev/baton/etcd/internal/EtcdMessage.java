package dev.baton.etcd.internal;

import dev.baton.spi.LogMessage;
import java.lang.System.Logger.Level;

/**
 * The etcd store's log messages: each one's id ({@code BATON-ETCD-nnn}), level and text, in one place; the
 * {@code docs} module checks that the ids of all the registries are unique and match the reference. The store's
 * classes log them on one logger, {@value #LOGGER}.
 *
 * <p>Patterns, arguments and how they are logged: {@link LogMessage}.
 */
public enum EtcdMessage implements LogMessage {
    NOT_WATCHING(
            "BATON-ETCD-001",
            Level.WARNING,
            "Not watching {0} for releases ({1}); the watch is set again in a second, waiters poll meanwhile"),
    LISTENER_FAILED("BATON-ETCD-002", Level.WARNING, "A release listener failed");

    /** The name of the store's logger. */
    public static final String LOGGER = "dev.baton.etcd.EtcdLockStore";

    private final String id;
    private final Level level;
    private final String pattern;

    EtcdMessage(String id, Level level, String pattern) {
        this.id = id;
        this.level = level;
        this.pattern = pattern;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Level level() {
        return level;
    }

    @Override
    public String pattern() {
        return pattern;
    }
}
