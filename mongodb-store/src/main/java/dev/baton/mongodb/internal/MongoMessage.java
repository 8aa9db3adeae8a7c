package dev.baton.mongodb.internal;

import dev.baton.spi.LogMessage;
import java.lang.System.Logger.Level;

/**
 * The MongoDB store's log messages: each one's id ({@code BATON-MONGO-nnn}), level and text, in one place. Like the
 * runtime's messages it implements the API's {@link LogMessage}. The store's classes log them on one logger,
 * {@value #LOGGER}.
 *
 * <p>Patterns, arguments and how they are logged: {@link LogMessage}.
 */
public enum MongoMessage implements LogMessage {
    INDEXES_READY("BATON-MONGO-001", Level.DEBUG, "connected to {0}: the TTL indexes of {1} are in place"),
    INDEXES_FAILED(
            "BATON-MONGO-002",
            Level.WARNING,
            "Could not create the TTL indexes of {0} ({1}): locks work, but the documents of keys no longer used are"
                    + " not deleted; create the indexes as the store''s documentation shows");

    /** The name of the store's logger: the store's public class. */
    public static final String LOGGER = "dev.baton.mongodb.MongoLockStore";

    private final String id;
    private final Level level;
    private final String pattern;

    MongoMessage(String id, Level level, String pattern) {
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
