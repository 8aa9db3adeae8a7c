package dev.baton.redis.internal;

import dev.baton.spi.LogMessage;
import java.lang.System.Logger.Level;

/**
 * The Redis store's log messages: each one's id ({@code BATON-REDIS-nnn}), level and text, in one place. Like the
 * runtime's {@code BatonMessage} it implements the API's {@link LogMessage}; the {@code docs} module checks that the ids of all the registries are unique and match the reference. The store's
 * classes log them on one logger, {@value #LOGGER}, the name the reference gives.
 *
 * <p>Patterns, arguments and how they are logged: {@link LogMessage}.
 */
public enum RedisMessage implements LogMessage {
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

    /** The name of the store's logger: the store's class, as it was when one class did all the logging. */
    public static final String LOGGER = "dev.baton.redis.RedisLockStore";

    private final String id;
    private final Level level;
    private final String pattern;

    RedisMessage(String id, Level level, String pattern) {
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
