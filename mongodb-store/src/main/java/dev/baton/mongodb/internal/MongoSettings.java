package dev.baton.mongodb.internal;

import com.mongodb.ConnectionString;
import com.mongodb.MongoNamespace;
import dev.baton.spi.LockArguments;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks of the store's settings, shared by the builder and the factory: each throws an
 * {@link IllegalArgumentException} that names the setting and says what a good value looks like.
 */
public final class MongoSettings {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");
    private static final Map<String, Long> UNIT_MILLIS = Map.of("ms", 1L, "s", 1_000L, "m", 60_000L, "h", 3_600_000L);
    private static final Pattern CREDENTIALS = Pattern.compile("(?<=://)[^@/]*@");

    private MongoSettings() {}

    /**
     * @param url a connection string
     * @return it, parsed
     * @throws IllegalArgumentException if it is empty or not a MongoDB connection string (the message never shows
     *     a password)
     */
    public static ConnectionString connectionString(String url) {
        Objects.requireNonNull(url, "url");
        if (url.isBlank()) {
            throw new IllegalArgumentException("the MongoDB connection string is empty: give"
                    + " mongodb://[user:password@]host[:port][,host...][/database][?options] or mongodb+srv://...");
        }
        try {
            return new ConnectionString(url.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "'" + masked(url) + "' is not a MongoDB connection string: " + e.getMessage(), e);
        }
    }

    /**
     * @param url a connection string
     * @return it with any {@code user:password@} replaced by {@code ***@}, for messages
     */
    public static String masked(String url) {
        return CREDENTIALS.matcher(url.strip()).replaceFirst("***@");
    }

    /**
     * @param database a database name
     * @return it
     * @throws IllegalArgumentException if MongoDB would refuse it
     */
    public static String requireValidDatabase(String database) {
        Objects.requireNonNull(database, "database");
        try {
            MongoNamespace.checkDatabaseNameValidity(database);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "database '" + database + "' is not a valid MongoDB database name: " + e.getMessage(), e);
        }
        return database;
    }

    /**
     * @param collection a collection name
     * @return it
     * @throws IllegalArgumentException if MongoDB would refuse it, or it names a system collection
     */
    public static String requireValidCollection(String collection) {
        Objects.requireNonNull(collection, "collection");
        try {
            MongoNamespace.checkCollectionNameValidity(collection);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "collection '" + collection + "' is not a valid MongoDB collection name: " + e.getMessage(), e);
        }
        if (collection.startsWith("system.") || collection.indexOf('\0') >= 0 || collection.indexOf('$') >= 0) {
            throw new IllegalArgumentException("collection '" + collection.replace("\0", "\\u0000")
                    + "' is not a valid MongoDB collection name: no $, no NUL, and not a system.* collection");
        }
        return collection;
    }

    /**
     * @param timeout the operation timeout
     * @return it
     * @throws IllegalArgumentException if not from 1 ms to 365 days
     */
    public static Duration requireValidOperationTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "operationTimeout");
        if (timeout.isNegative() || timeout.toMillis() < 1 || timeout.toMillis() > LockArguments.MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException("operationTimeout must be from 1 ms to 365 days ("
                    + LockArguments.MAX_DURATION_MILLIS + " ms), was " + timeout);
        }
        return timeout;
    }

    /**
     * @param text {@code 500ms}, {@code 5s}, {@code 1m}, {@code 2h}, ISO-8601 ({@code PT5S}) or plain milliseconds
     * @return the duration
     * @throws IllegalArgumentException if it is none of those
     */
    public static Duration duration(String text) {
        String value = text.strip();
        try {
            Matcher m = SHORT_DURATION.matcher(value);
            return m.matches()
                    ? Duration.ofMillis(Math.multiplyExact(
                            Long.parseLong(m.group(1)), UNIT_MILLIS.get(m.group(2) == null ? "ms" : m.group(2))))
                    : Duration.parse(value);
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException(
                    "is not a duration: use e.g. 500ms, 5s, 1m, PT5S or plain milliseconds", e);
        }
    }
}
