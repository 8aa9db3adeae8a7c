package dev.baton.impl.config;

import dev.baton.LockConfigurationException;
import dev.baton.spi.LockArguments;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the durations of configuration and annotations: ISO-8601 ({@code PT30S}, {@code P1D}), short
 * forms ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}) and plain milliseconds
 * ({@code 1500}). Results are whole milliseconds from 1 to {@link LockArguments#MAX_DURATION_MILLIS}.
 */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,15})\\s*(ms|s|m|h|d)?");

    private Durations() {}

    /**
     * Parses a duration.
     *
     * @param value the text
     * @param where what it was read from (a config key, or an annotation member), for the message
     * @return whole milliseconds
     * @throws LockConfigurationException naming {@code where} and the value
     */
    public static long parseMillis(String value, String where) {
        String text = value == null ? "" : value.trim();
        long millis;
        Matcher m = SHORT.matcher(text);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2);
            millis = switch (unit) {
                case "ms" -> amount;
                case "s" -> multiply(amount, 1_000L, value, where);
                case "m" -> multiply(amount, 60_000L, value, where);
                case "h" -> multiply(amount, 3_600_000L, value, where);
                default -> multiply(amount, 86_400_000L, value, where);
            };
        } else if (text.startsWith("P") || text.startsWith("p")) {
            Duration duration;
            try {
                duration = Duration.parse(text);
            } catch (DateTimeParseException e) {
                throw invalid(value, where, "not an ISO-8601 duration");
            }
            if (duration.getNano() % 1_000_000 != 0) {
                throw invalid(value, where, "durations are whole milliseconds");
            }
            try {
                millis = duration.toMillis();
            } catch (ArithmeticException e) {
                throw invalid(value, where, "too large");
            }
        } else {
            throw invalid(value, where, "not a duration");
        }
        if (millis <= 0) {
            throw invalid(value, where, "must be at least 1 ms");
        }
        if (millis > LockArguments.MAX_DURATION_MILLIS) {
            throw invalid(value, where, "must be at most 365 days");
        }
        return millis;
    }

    private static long multiply(long amount, long factor, String value, String where) {
        try {
            return Math.multiplyExact(amount, factor);
        } catch (ArithmeticException e) {
            throw invalid(value, where, "too large");
        }
    }

    private static LockConfigurationException invalid(String value, String where, String why) {
        return new LockConfigurationException("Invalid duration '" + value + "' for " + where + ": " + why
                + " (use e.g. 500ms, 30s, 5m, 1h, 2d or ISO-8601 PT30S)");
    }
}
