package dev.baton.redis.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.text.MessageFormat;
import java.util.Arrays;

/**
 * The Redis store's log messages: each one's id ({@code BATON-REDIS-nnn}), level and text, in one place. The same
 * shape as the runtime's {@code BatonMessage} (the store depends on the API only, so it keeps its own); the
 * {@code docs} module checks that the ids of all the registries are unique and match the reference. Each class
 * logs on its own logger, as before.
 *
 * <p>A pattern is a {@link MessageFormat} pattern ({@code ''} for a quote) without the id, which {@link #text()}
 * puts first. Arguments are written as {@link String#valueOf}, never in a locale's number format.
 */
public enum RedisMessage {
    CONNECTED("BATON-REDIS-001", Level.DEBUG, "connected to {0}"),
    NOT_SUBSCRIBED(
            "BATON-REDIS-002",
            Level.WARNING,
            "Not subscribed to release notifications yet ({0}); trying again at the next operation, waiters"
                    + " poll meanwhile"),
    LISTENER_FAILED("BATON-REDIS-003", Level.WARNING, "A release listener failed"),
    EVICTION_ALLOWED(
            "BATON-REDIS-004",
            Level.WARNING,
            "Redis {0}, allowed by allow-eviction: a full Redis may evict a held lock''s record, and another"
                    + " owner then takes the key during the holder''s lease"),
    POLICY_UNKNOWN(
            "BATON-REDIS-005",
            Level.WARNING,
            "the maxmemory-policy of Redis {0} is unknown (neither CONFIG GET nor INFO memory told it): the"
                    + " store starts; make sure it is noeviction, or a full Redis may evict held locks'' records");

    private final String id;
    private final Level level;
    private final String pattern;

    RedisMessage(String id, Level level, String pattern) {
        this.id = id;
        this.level = level;
        this.pattern = pattern;
    }

    /** @return the id, e.g. {@code BATON-REDIS-001} */
    public String id() {
        return id;
    }

    /** @return the level it is logged at */
    public Level level() {
        return level;
    }

    /** @return its {@link MessageFormat} pattern, without the id */
    public String pattern() {
        return pattern;
    }

    /** @return the id, a space and the pattern: what is logged */
    public String text() {
        return id + " " + pattern;
    }

    /**
     * @param arguments the pattern's arguments
     * @return the message as it is logged: the id first, each argument written as {@link String#valueOf}
     */
    public String format(Object... arguments) {
        return arguments.length == 0
                ? text().replace("''", "'")
                : new MessageFormat(text())
                        .format(Arrays.stream(arguments).map(String::valueOf).toArray());
    }

    /**
     * Logs the message, formatted only if {@code logger} logs at its level.
     *
     * @param logger where
     * @param arguments the pattern's arguments
     */
    public void log(Logger logger, Object... arguments) {
        logger.log(level, () -> format(arguments));
    }

    /**
     * Logs the message with its cause, formatted only if {@code logger} logs at its level.
     *
     * @param logger where
     * @param thrown the cause
     * @param arguments the pattern's arguments
     */
    public void logWithCause(Logger logger, Throwable thrown, Object... arguments) {
        logger.log(level, () -> format(arguments), thrown);
    }
}
