package dev.baton.redis.internal;

import dev.baton.spi.LockArguments;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The checks and parsing of the Redis store's settings, shared by the builder and the factory. */
public final class RedisSettings {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,15})\\s*(ms|s|m|h|d)?");
    private static final Map<String, Long> UNIT_MILLIS =
            Map.of("ms", 1L, "s", 1_000L, "m", 60_000L, "h", 3_600_000L, "d", 86_400_000L);
    private static final int MAX_KEY_PREFIX_BYTES = 200;

    private RedisSettings() {}

    /**
     * Parses a Redis URL.
     *
     * @param url {@code redis://[[user:]password@]host[:port][/database]} or {@code rediss://...}
     * @return the URI
     * @throws IllegalArgumentException naming the URL (without its password) and what is wrong
     */
    public static RedisURI parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(
                    "the Redis URL is empty: use redis://host:port[/database], or rediss:// for TLS");
        }
        String text = url.strip();
        String scheme =
                text.contains("://") ? text.substring(0, text.indexOf("://")).toLowerCase(Locale.ROOT) : "";
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            throw new IllegalArgumentException("'" + masked(text)
                    + "' is not a Redis URL: use redis://host:port[/database]," + " or rediss:// for TLS");
        }
        RedisURI uri;
        try {
            uri = RedisURI.create(scheme + text.substring(scheme.length()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + masked(text) + "' is not a valid Redis URL: " + e.getMessage(), e);
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new IllegalArgumentException("'" + masked(text) + "' names no host");
        }
        if (uri.getDatabase() < 0) {
            throw new IllegalArgumentException(
                    "'" + masked(text) + "' names database " + uri.getDatabase() + ": a database number is 0 or more");
        }
        return uri;
    }

    /**
     * @param url a URL
     * @return the URL with its user information (user, password) replaced by {@code ***}
     */
    public static String masked(String url) {
        int start = url.indexOf("://");
        int at = url.lastIndexOf('@');
        if (start < 0 || at < start) {
            return url;
        }
        return url.substring(0, start + 3) + "***" + url.substring(at);
    }

    /**
     * Checks a key prefix.
     *
     * @param keyPrefix the prefix
     * @return the prefix
     * @throws IllegalArgumentException if it is empty, longer than 200 UTF-8 bytes or not valid UTF-16
     */
    public static String requireValidKeyPrefix(String keyPrefix) {
        if (keyPrefix == null || keyPrefix.isEmpty()) {
            throw new IllegalArgumentException("the key prefix must not be empty: it keeps the store's keys apart from"
                    + " the other data of the Redis database");
        }
        try {
            LockArguments.requireValidKey(keyPrefix, false);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "the key prefix is not valid: " + e.getMessage().replace("lock key", "it"), e);
        }
        int bytes = keyPrefix.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_PREFIX_BYTES) {
            throw new IllegalArgumentException("the key prefix is " + bytes + " bytes long in UTF-8, at most "
                    + MAX_KEY_PREFIX_BYTES + " are allowed");
        }
        return keyPrefix;
    }

    /**
     * Checks a command timeout.
     *
     * @param commandTimeout the timeout
     * @return the timeout, cut to whole milliseconds
     * @throws IllegalArgumentException if it is not from 1 ms to 365 days
     */
    public static Duration requireValidCommandTimeout(Duration commandTimeout) {
        long millis = Objects.requireNonNull(commandTimeout, "commandTimeout").toMillis();
        if (millis < 1 || millis > LockArguments.MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException("commandTimeout must be from 1 ms to 365 days, was " + commandTimeout);
        }
        return Duration.ofMillis(millis);
    }

    /**
     * Parses a duration: {@code 500ms}, {@code 5s}, {@code 1m}, {@code 2h}, {@code 1d}, plain milliseconds,
     * or ISO-8601 ({@code PT5S}).
     *
     * @param text the text
     * @return the duration
     * @throws IllegalArgumentException if it is not one, or not from 1 ms to 365 days
     */
    public static Duration duration(String text) {
        String value = text.strip();
        Duration duration;
        Matcher m = SHORT_DURATION.matcher(value);
        try {
            if (m.matches()) {
                long unit = UNIT_MILLIS.get(m.group(2) == null ? "ms" : m.group(2));
                duration = Duration.ofMillis(Math.multiplyExact(Long.parseLong(m.group(1)), unit));
            } else {
                duration = Duration.parse(value);
            }
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("not a duration: use e.g. 500ms, 5s, 1m, PT5S or plain milliseconds", e);
        }
        if (duration.toMillis() < 1 || duration.toMillis() > LockArguments.MAX_DURATION_MILLIS) {
            throw new IllegalArgumentException("must be from 1 ms to 365 days");
        }
        return duration;
    }
}
