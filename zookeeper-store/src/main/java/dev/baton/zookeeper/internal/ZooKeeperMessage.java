package dev.baton.zookeeper.internal;

import dev.baton.spi.LogMessage;
import java.lang.System.Logger.Level;

/**
 * The ZooKeeper store's log messages: each one's id ({@code BATON-ZK-nnn}), level and text, in one place; the
 * {@code docs} module checks that the ids of all the registries are unique and match the reference. The store's
 * classes log them on one logger, {@value #LOGGER}.
 *
 * <p>Patterns, arguments and how they are logged: {@link LogMessage}.
 */
public enum ZooKeeperMessage implements LogMessage {
    NOT_WATCHING(
            "BATON-ZK-001",
            Level.WARNING,
            "Not watching {0} for releases yet ({1}); the watch is set when the session connects, waiters poll"
                    + " meanwhile"),
    LISTENER_FAILED("BATON-ZK-002", Level.WARNING, "A release listener failed");

    /** The name of the store's logger. */
    public static final String LOGGER = "dev.baton.zookeeper.ZooKeeperLockStore";

    private final String id;
    private final Level level;
    private final String pattern;

    ZooKeeperMessage(String id, Level level, String pattern) {
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
